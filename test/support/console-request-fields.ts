/**
 * The fields of console API requests, read from /console/api/openapi.json (the schemas the
 * routes validate with): every property of a JSON body, nested ones too, and every query
 * parameter, with the kind of account resource the contract marks it as naming
 * (ACCOUNT_RESOURCE_KEY), for the console security suite. Path parameters are not here: the
 * suite fills those by name (CONSOLE_RESOURCES).
 */
import assert from 'node:assert/strict';
import { ACCOUNT_RESOURCE_KEY } from '../../src/api/console/contract/common.js';
import type { Harness } from './harness.js';

export interface RequestField {
  readonly in: 'body' | 'query';
  /** Its name; a nested one's path, e.g. `items[].groupId`. */
  readonly name: string;
  readonly nested: boolean;
  /** The kind of the caller's account's resource it names, as the contract marks it; or null. */
  readonly resource: string | null;
}

/** A name that reads as naming a record: `id`, `…Id`, `…Ids`, `uuid`, `…Uuid`. */
export const ID_LIKE = /(^id|Id|Ids|^uuid|Uuid)$/;

interface JsonSchema {
  readonly properties?: Record<string, JsonSchema>;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly [key: string]: unknown;
}

interface Operation {
  readonly parameters?: readonly { in: string; name: string; schema?: JsonSchema }[];
  readonly requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

function bodyFields(schema: JsonSchema, prefix: string, nested: boolean): RequestField[] {
  const fields: RequestField[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const resource = property[ACCOUNT_RESOURCE_KEY];
    fields.push({
      in: 'body',
      name: path,
      nested,
      resource: typeof resource === 'string' ? resource : null,
    });
    fields.push(...bodyFields(property, `${path}.`, true));
    if (property.items) fields.push(...bodyFields(property.items, `${path}[].`, true));
  }
  for (const alternative of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    fields.push(...bodyFields(alternative, prefix, nested));
  }
  return fields;
}

/** The request fields of every documented console route, by `METHOD /fastify/:path`. */
export async function consoleRequestFields(h: Harness): Promise<Map<string, RequestField[]>> {
  const response = await h.app.inject({ method: 'GET', url: '/console/api/openapi.json' });
  assert.equal(response.statusCode, 200, response.body);
  const paths = (response.json() as { paths: Record<string, Record<string, Operation>> }).paths;
  const fields = new Map<string, RequestField[]>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const query: RequestField[] = (operation.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => {
          const resource = p.schema?.[ACCOUNT_RESOURCE_KEY];
          return {
            in: 'query',
            name: p.name,
            nested: false,
            resource: typeof resource === 'string' ? resource : null,
          };
        });
      const body = operation.requestBody?.content['application/json']?.schema;
      const id = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      fields.set(id, [...query, ...(body ? bodyFields(body, '', false) : [])]);
    }
  }
  return fields;
}
