import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { splitKey, type Endpoint } from '../../../src/api/console/contract/endpoint.js';
import { consoleEndpoints } from '../../../src/api/console/contract/endpoints.js';
import { senderRequestFormSchema } from '../../../src/api/console/contract/senders.js';
import { NUMBER_LIST_TYPES } from '../../../src/api/console/contract/number-imports.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { consoleRoutes } from '../../support/console-security-suite.js';

const entries = Object.entries(consoleEndpoints) as [string, Endpoint][];

interface Operation {
  requestBody?: {
    required?: boolean;
    content: Record<
      string,
      {
        schema: {
          type?: string;
          contentMediaType?: string;
          properties?: Record<string, { type?: string; required?: string[]; minItems?: number }>;
          required?: string[];
        };
        encoding?: Record<string, { contentType: string }>;
      }
    >;
  };
}

for (const engine of testEngines()) {
  describe(`the console API's contract (${engine.name})`, () => {
    let h: Harness;
    let paths: Record<string, Record<string, Operation>>;
    before(async () => {
      h = await createHarness(engine);
      const response = await h.app.inject({ method: 'GET', url: '/console/api/openapi.json' });
      assert.equal(response.statusCode, 200, response.body);
      paths = (response.json() as { paths: typeof paths }).paths;
    });
    after(() => h.close());

    it('serves exactly the routes of the contract map the browser calls by, no more and no fewer', () => {
      const served = consoleRoutes(h)
        .map((route) => `${route.method} ${route.url.slice('/console/api'.length)}`)
        .sort();
      assert.deepEqual(served, Object.keys(consoleEndpoints).sort());
    });

    it("names each route's path parameters in its entry's params, and no others", () => {
      for (const [key, endpoint] of entries) {
        const names = [...splitKey(key).path.matchAll(/:(\w+)/g)].map((match) => match[1]);
        const declared =
          endpoint.params instanceof z.ZodObject ? Object.keys(endpoint.params.shape) : [];
        assert.deepEqual(declared.sort(), names.sort(), key);
      }
    });

    it('documents the multipart sender-request routes with their form as JSON and their documents as files', () => {
      for (const [path, filesRequired] of [
        ['/console/api/sender-requests', true],
        ['/console/api/sender-requests/{requestId}/resubmit', false],
      ] as const) {
        const body = paths[path]!.post!.requestBody;
        assert.ok(body, `${path} has a requestBody`);
        assert.equal(body.required, true);
        assert.deepEqual(Object.keys(body.content), ['multipart/form-data']);
        const { schema, encoding } = body.content['multipart/form-data']!;
        assert.equal(schema.type, 'object');
        assert.deepEqual(
          schema.required,
          filesRequired ? ['request', 'documents'] : ['request'],
          path,
        );
        assert.equal(schema.properties!.request!.type, 'object');
        assert.equal(schema.properties!.documents!.type, 'array');
        assert.equal(schema.properties!.documents!.minItems, filesRequired ? 1 : undefined);
        assert.deepEqual(encoding, {
          request: { contentType: 'application/json' },
          documents: { contentType: 'application/pdf, image/png, image/jpeg' },
        });
      }
      const form =
        paths['/console/api/sender-requests']!.post!.requestBody!.content['multipart/form-data']!
          .schema.properties!.request!;
      assert.deepEqual(
        [...form.required!].sort(),
        Object.keys(senderRequestFormSchema.shape).sort(),
        "the form's required fields are the contract's",
      );
      const resubmitted =
        paths['/console/api/sender-requests/{requestId}/resubmit']!.post!.requestBody!.content[
          'multipart/form-data'
        ]!.schema.properties!.request!;
      assert.ok(!resubmitted.required!.includes('name'), 'a resubmission keeps its name');
    });

    it('documents each streamed upload as the file itself, in each media type it may be sent as', () => {
      const uploads: [string, readonly string[]][] = [
        ['/console/api/recipient-lists', ['text/plain', 'text/csv']],
        ['/console/api/contact-groups/{groupId}/import', NUMBER_LIST_TYPES],
        ['/console/api/blocklist/import', NUMBER_LIST_TYPES],
        ['/console/api/admin/blocklist/import', NUMBER_LIST_TYPES],
      ];
      for (const [path, types] of uploads) {
        const body = paths[path]!.post!.requestBody;
        assert.ok(body, `${path} has a requestBody`);
        assert.equal(body.required, true);
        assert.deepEqual(Object.keys(body.content), [...types], path);
        for (const type of types) {
          assert.deepEqual(body.content[type]!.schema, {
            type: 'string',
            contentMediaType: 'application/octet-stream',
          });
        }
      }
    });

    it('documents a JSON body for every other route that takes one, from its entry', () => {
      for (const [key, endpoint] of entries) {
        const { method, path } = splitKey(key);
        const operation =
          paths[`/console/api${path.replace(/:(\w+)/g, '{$1}')}`]![method.toLowerCase()]!;
        if (endpoint.body) {
          assert.ok(operation.requestBody?.content['application/json'], `${key}: a JSON body`);
        } else if (!endpoint.upload) {
          assert.equal(operation.requestBody, undefined, `${key}: no body`);
        }
      }
    });
  });
}
