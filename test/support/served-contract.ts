import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
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
  requestBody?: {
    required?: boolean;
    content: Record<string, { schema: Record<string, unknown> }>;
  };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const DOCUMENT_ID = 'https://nok.invalid/openapi.json';

/** A request as it is sent: its URL with the query, its headers, and its body's text. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * The contract the app publishes at /openapi.json, compiled with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1, with its formats). `check` holds one answer to it: a documented
 * operation answers only its documented statuses, with bodies its schemas accept; every other
 * error answer is `{ error, code }`. `requestProblems` says whether it accepts a request.
 */
export class ServedContract {
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly ajv: Ajv2020;
  /** For query and header values, strings on the wire: coerced as Fastify's router does. */
  private readonly coercing: Ajv2020;
  private readonly templates: {
    path: string;
    params: number;
    pattern: RegExp;
    names: string[];
  }[];

  private constructor(readonly document: OpenApiDocument) {
    // Not strict: the document holds OpenAPI's own keywords (openapi, paths, info) around the schemas.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    this.coercing = new Ajv2020({
      strict: false,
      allErrors: true,
      coerceTypes: 'array',
      useDefaults: true,
    });
    addFormats(this.coercing);
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        params: (path.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`,
        ),
        names: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
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
      const captured = template.pattern.exec(path)?.slice(1);
      if (op && captured && this.matchesPathFormats(op, template.names, captured))
        return { path: template.path, op };
    }
    return null;
  }

  /** Whether each path parameter has its documented `pattern`, as the router requires. */
  private matchesPathFormats(
    op: OpenApiOperation,
    names: readonly string[],
    captured: readonly string[],
  ): boolean {
    return names.every((name, i) => {
      const declared = op.parameters?.find((p) => p.in === 'path' && p.name === name);
      const pattern = (declared?.schema as { pattern?: string } | undefined)?.pattern;
      return pattern === undefined || new RegExp(pattern).test(safeDecode(captured[i] ?? ''));
    });
  }

  /**
   * What the document refuses in a request as sent, one line a problem; none when it accepts
   * it. Path, query and header values are checked as the strings they are on the wire, coerced
   * to their schema's type as Fastify's Ajv does (`coerceTypes: 'array'`); a JSON body is
   * parsed from its text. Authentication is not the document's shape and is not checked.
   */
  requestProblems(request: SentRequest): string[] {
    const found = this.operation(request.method, request.url);
    if (!found) return [`no operation ${request.method} ${request.url.split('?')[0]}`];
    const problems: string[] = [];
    const params = found.op.parameters ?? [];
    const url = new URL(request.url, 'http://nok.invalid');
    const template = this.templates.find((t) => t.path === found.path)!;
    const captured = template.pattern.exec(url.pathname)?.slice(1) ?? [];
    const byPlace = (place: string, values: Record<string, unknown>) => {
      const declared = params.filter((p) => p.in === place);
      if (declared.length === 0) return;
      const schema = {
        type: 'object',
        properties: Object.fromEntries(declared.map((p) => [p.name, p.schema])),
        required: declared.filter((p) => p.required).map((p) => p.name),
      };
      const cacheKey = `${request.method} ${found.path} ${place}`;
      let validate = this.compiled.get(cacheKey);
      if (!validate) {
        validate = this.coercing.compile(schema);
        this.compiled.set(cacheKey, validate);
      }
      if (!validate(values))
        problems.push(`${place}: ${this.coercing.errorsText(validate.errors, { dataVar: place })}`);
    };
    byPlace(
      'path',
      Object.fromEntries(template.names.map((name, i) => [name, safeDecode(captured[i] ?? '')])),
    );
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) {
      const before = query[name];
      query[name] = before === undefined ? value : [before, value].flat();
    }
    byPlace('query', query);
    byPlace(
      'header',
      Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v])),
    );
    const body = found.op.requestBody;
    if (body) {
      const schema = body.content['application/json']?.schema;
      if (request.body === undefined || request.body === '') {
        if (body.required) problems.push('body: required');
      } else if (schema) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(request.body);
        } catch {
          problems.push('body: not JSON');
          return problems;
        }
        const pointer = ['paths', found.path, request.method.toLowerCase(), 'requestBody']
          .map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/');
        const validate = this.compiledAt(`${pointer}/content/application~1json/schema`);
        if (!validate(parsed))
          problems.push(`body: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
      }
    }
    return problems;
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
      assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'error', 'requestId'], where);
    }
  }

  private compiledAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private validate(pointer: string, response: LightMyRequestResponse, where: string): void {
    const validate = this.compiledAt(pointer);
    assert.ok(isJson(response), `${where}: not JSON (${response.headers['content-type']})`);
    const body: unknown = response.json();
    assert.ok(
      validate(body),
      `${where}: the body does not match /openapi.json: ${this.ajv.errorsText(validate.errors)}`,
    );
  }
}

/**
 * `app.inject` whose every answer is held to the contract the app serves (`ServedContract.check`),
 * for tests that build or start an app without the harness.
 */
export function contractInject(
  app: FastifyInstance,
): (options: InjectOptions & { url: string }) => Promise<LightMyRequestResponse> {
  let contract: Promise<ServedContract> | undefined;
  return async (options) => {
    const response = await app.inject(options);
    contract ??= ServedContract.load(app);
    (await contract).check(options.method ?? 'GET', options.url, response);
    return response;
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isJson(response: LightMyRequestResponse): boolean {
  return /^application\/json/.test(String(response.headers['content-type'] ?? ''));
}
