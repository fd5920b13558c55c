import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DomainError, invalidParameter } from '../../domain/errors.js';
import type { UploadedDocument } from '../../domain/senders/check-document.js';
import type { MultipartUpload } from './contract/endpoint.js';

const MAX_FORM_BYTES = 64 * 1024;

export interface Upload<T> {
  readonly form: T;
  readonly documents: UploadedDocument[];
}

/**
 * Reads a multipart upload as its contract entry has it (`upload`): the form as JSON in its
 * form field, checked with the entry's schema, and up to `maxFiles` files in its file field,
 * each read only up to `maxFileBytes` (a larger one stops the read: 413 DOCUMENT_TOO_LARGE).
 * Nothing is stored here; the use case checks each file's bytes.
 */
export async function readUpload<S extends z.ZodType>(
  request: FastifyRequest,
  upload: MultipartUpload & { readonly form: S },
  limits: { maxFileBytes: number; maxFiles: number },
): Promise<Upload<z.output<S>>> {
  const { formField: FORM_FIELD, fileField: FILE_FIELD } = upload;
  if (!request.isMultipart()) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send multipart/form-data: the form as JSON in "${FORM_FIELD}" and the files in "${FILE_FIELD}"`,
    );
  }
  let formText: string | undefined;
  const documents: UploadedDocument[] = [];
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: 1,
        fieldSize: MAX_FORM_BYTES,
        parts: limits.maxFiles + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) {
          throw invalidParameter(
            `unexpected file field "${part.fieldname}"; send files as "${FILE_FIELD}"`,
          );
        }
        const content = await part.toBuffer();
        documents.push({ fileName: part.filename, declaredType: part.mimetype, content });
      } else {
        if (part.fieldname !== FORM_FIELD) {
          throw invalidParameter(
            `unexpected field "${part.fieldname}"; send the form as JSON in "${FORM_FIELD}"`,
          );
        }
        if (part.valueTruncated)
          throw invalidParameter(`"${FORM_FIELD}" is larger than ${MAX_FORM_BYTES} bytes`);
        formText = String(part.value);
      }
    }
  } catch (error) {
    throw asDomainError(error, upload, limits);
  }
  if (formText === undefined)
    throw invalidParameter(`the form is missing: send it as JSON in "${FORM_FIELD}"`);
  let json: unknown;
  try {
    json = JSON.parse(formText);
  } catch {
    throw new DomainError('INVALID_JSON', `"${FORM_FIELD}" is not valid JSON`);
  }
  const parsed = upload.form.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw invalidParameter(`${path}${issue.message}`);
  }
  return { form: parsed.data as z.output<S>, documents };
}

function asDomainError(
  error: unknown,
  { formField, fileField }: MultipartUpload,
  limits: { maxFileBytes: number; maxFiles: number },
): unknown {
  if (error instanceof DomainError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new DomainError(
        'DOCUMENT_TOO_LARGE',
        `a document is larger than ${limits.maxFileBytes} bytes, the limit for each file`,
      );
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalidParameter(`attach at most ${limits.maxFiles} documents at a time`);
    case 'FST_FIELDS_LIMIT':
      return invalidParameter(`send one "${formField}" field and the "${fileField}" files only`);
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return invalidParameter(`the multipart body could not be read: ${(error as Error).message}`);
    default:
      return error;
  }
}
