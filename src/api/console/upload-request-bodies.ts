import { z } from 'zod';
import { splitKey, type Upload } from './contract/endpoint.js';
import { consoleEndpoints } from './contract/endpoints.js';

type Paths = Record<string, Record<string, { requestBody?: unknown } | undefined> | undefined>;

/**
 * Gives the console's upload routes the request body their contract entries say (OpenAPI 3.1):
 * a file streamed as the body is a binary string of each media type it may be sent as; a
 * multipart form names its JSON field, with the form's schema, and its file field. Routes that
 * read their own body declare no body schema to fastify (nothing would be left to stream), so
 * the document learns it here, from the same entries.
 */
export function withUploadBodies<D extends { paths?: unknown }>(document: D, prefix: string): D {
  const paths = document.paths as Paths | undefined;
  for (const [key, endpoint] of Object.entries(consoleEndpoints)) {
    const upload = (endpoint as { upload?: Upload }).upload;
    if (!upload) continue;
    const { method, path } = splitKey(key);
    const operation = paths?.[prefix + path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    if (operation) operation.requestBody = requestBodyOf(upload);
  }
  return document;
}

function requestBodyOf(upload: Upload): unknown {
  if (upload.kind === 'file') {
    const binary = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
    return {
      required: true,
      description: 'The file itself, streamed: one number a line, or CSV.',
      content: Object.fromEntries(upload.types.map((type) => [type, binary])),
    };
  }
  const { $schema: _dialect, ...form } = z.toJSONSchema(upload.form, {
    io: 'input',
    unrepresentable: 'any',
  });
  const files = {
    type: 'array',
    items: { type: 'string', contentMediaType: 'application/octet-stream' },
    ...(upload.filesRequired && { minItems: 1 }),
  };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { [upload.formField]: form, [upload.fileField]: files },
          required: upload.filesRequired
            ? [upload.formField, upload.fileField]
            : [upload.formField],
        },
        encoding: {
          [upload.formField]: { contentType: 'application/json' },
          [upload.fileField]: { contentType: upload.fileTypes.join(', ') },
        },
      },
    },
  };
}
