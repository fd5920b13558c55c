import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives as the module object under tsx.
const addFormats = ((addFormatsModule as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/** The parts of the served OpenAPI document this reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
}

export interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const DOCUMENT_ID = 'https://nok.invalid/openapi.json';

/**
 * The contract the app publishes at /openapi.json, compiled with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1, with its formats). `check` holds one answer to it: a documented
 * operation answers only its documented statuses, with bodies its schemas accept; every other
 * error answer is `{ error, code }`.
 */
export class ServedContract {
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly ajv: Ajv2020;
  private readonly templates: { path: string; params: number; pattern: RegExp }[];

  private constructor(readonly document: OpenApiDocument) {
    // Not strict: the document holds OpenAPI's own keywords (openapi, paths, info) around the schemas.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        params: (path.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
      }))
      .sort((a, b) => a.params - b.params);
  }

  static async load(app: FastifyInstance): Promise<ServedContract> {
    const served = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(served.statusCode, 200, served.body);
    return new ServedContract(served.json() as OpenApiDocument);
  }

  /** The documented operation a request reaches, as the router picks it: static paths first. */
  operation(method: string, url: string): { path: string; op: OpenApiOperation } | null {
    const path = url.split('?')[0] ?? '';
    const m = method.toLowerCase();
    for (const template of this.templates) {
      const op = this.document.paths[template.path]?.[m];
      if (op && template.pattern.test(path)) return { path: template.path, op };
    }
    return null;
  }

  check(method: string, url: string, response: LightMyRequestResponse): void {
    const where = `${method} ${url} answered ${response.statusCode} ${response.body.slice(0, 300)}`;
    const found = this.operation(method, url);
    const status = String(response.statusCode);
    if (found) {
      const documented = found.op.responses[status] ?? found.op.responses.default;
      assert.ok(documented, `${where}: status ${status} is not in /openapi.json for it`);
      const schema = documented.content?.['application/json']?.schema;
      if (schema !== undefined && method !== 'HEAD') {
        const pointer = ['paths', found.path, method.toLowerCase(), 'responses', status]
          .map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/');
        this.validate(`${pointer}/content/application~1json/schema`, response, where);
      }
      return;
    }
    if (response.statusCode >= 400 && method !== 'HEAD' && isJson(response)) {
      this.validate('components/schemas/Error', response, where);
      assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'error'], where);
    }
  }

  private validate(pointer: string, response: LightMyRequestResponse, where: string): void {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.compiled.set(pointer, validate);
    }
    assert.ok(isJson(response), `${where}: not JSON (${response.headers['content-type']})`);
    const body: unknown = response.json();
    assert.ok(
      validate(body),
      `${where}: the body does not match /openapi.json: ${this.ajv.errorsText(validate.errors)}`,
    );
  }
}

function isJson(response: LightMyRequestResponse): boolean {
  return /^application\/json/.test(String(response.headers['content-type'] ?? ''));
}
