import type { z } from 'zod';

/*
 * What a console API route is, once, for the server and the browser alike: keyed by its method
 * and path (`'DELETE /keys/:keyId'`), the schemas of its path parameters, query, body and answer.
 * The server declares each route from its entry (`consoleRoute`), so it validates and
 * serialises with exactly these schemas; the browser calls a route by the same key
 * (`lib/api-client.ts`), so the key fixes at compile time what it sends and what it gets back,
 * and every answer is parsed with the entry's schema.
 */

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];
export type EndpointKey = `${Method} /${string}`;

/** A file sent as the request body itself, streamed (the browser never reads it). */
export interface FileUpload {
  readonly kind: 'file';
  /** The media types the body may be sent as. */
  readonly types: readonly string[];
}

/** A multipart/form-data body: a form as JSON in one field, files in another. */
export interface MultipartUpload {
  readonly kind: 'multipart';
  /** The field holding the form, as JSON, and the form's schema. */
  readonly formField: string;
  readonly form: z.ZodType;
  /** The field each file is sent in, and the media types a file may be. */
  readonly fileField: string;
  readonly fileTypes: readonly string[];
  /** Whether at least one file must come with the form. */
  readonly filesRequired: boolean;
}

export type Upload = FileUpload | MultipartUpload;

export interface Endpoint {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /** A body that is not JSON (never with `body`). */
  readonly upload?: Upload;
  /** The status of a success; 200 when not given. 204 has no body: its `response` is `z.undefined()`. */
  readonly status?: 200 | 201 | 202 | 204;
  /** The body of a success: JSON, unless `download` says otherwise. */
  readonly response: z.ZodType;
  /** Not JSON: the body's media types; the browser opens it by address, as a download. */
  readonly download?: readonly string[];
}

/** The names of a path's parameters: `'/a/:b/c/:d'` → `'b' | 'd'`. */
export type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathOf<K> = K extends `${Method} ${infer Path}` ? Path : never;

/** A key's path parameters must be its entry's `params`, and a path without any has none. */
type ParamsMatchPath<M> = {
  [K in keyof M]: [ParamNames<PathOf<K>>] extends [never]
    ? { readonly params?: undefined }
    : { readonly params: z.ZodType<{ [N in ParamNames<PathOf<K>>]: unknown }> };
};

/** An area's routes, checked: each key's path parameters are its `params`. */
export function endpoints<const M extends Record<EndpointKey, Endpoint>>(
  map: M & ParamsMatchPath<M>,
): M {
  return map;
}

/** A key's method and path. */
export function splitKey(key: string): { method: Method; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}

/**
 * A schema's shape as the browser writes it: its input, but a field the server coerces from
 * text (`z.coerce.number()`, whose input is `unknown`) typed as what it becomes.
 */
export type Wire<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K]
    ? K extends keyof z.output<S>
      ? z.output<S>[K]
      : never
    : z.input<S>[K];
};

type Field<E, Name extends string> = E extends { readonly [N in Name]: infer S extends z.ZodType }
  ? S
  : never;

/** What a call of an entry gives: its params, query, body or upload, as each is required. */
export type EndpointInput<E> = ([Field<E, 'params'>] extends [never]
  ? unknown
  : { readonly params: Wire<Field<E, 'params'>> }) &
  ([Field<E, 'query'>] extends [never]
    ? unknown
    : object extends Wire<Field<E, 'query'>>
      ? { readonly query?: Wire<Field<E, 'query'>> }
      : { readonly query: Wire<Field<E, 'query'>> }) &
  ([Field<E, 'body'>] extends [never] ? unknown : { readonly body: z.input<Field<E, 'body'>> }) &
  (E extends {
    readonly upload: { readonly kind: 'multipart'; readonly form: infer F extends z.ZodType };
  }
    ? { readonly form: z.input<F>; readonly files: readonly File[] }
    : unknown);

/** What a success of an entry answers, parsed. */
export type EndpointOutput<E> = E extends { readonly response: infer S extends z.ZodType }
  ? z.output<S>
  : never;

/** The server's view of a request to an entry: each part as its schema made it. */
export interface EndpointRequest<E> {
  Params: OutputOf<Field<E, 'params'>>;
  Querystring: OutputOf<Field<E, 'query'>>;
  Body: OutputOf<Field<E, 'body'>>;
}

type OutputOf<S> = [S] extends [never] ? unknown : S extends z.ZodType ? z.output<S> : unknown;
