import type { z } from 'zod';
import { sessionSchema, type Session } from '@contract/session';

/**
 * The one place the console calls its API (`/console/api`): JSON in and out, the session
 * cookie sent on same-origin requests only, the CSRF token on every state-changing request,
 * responses parsed with the contract's schema, and every failure turned into an `ApiError`.
 * A 401 tells the app the session is gone (`onUnauthorized`), which sends the user to sign in.
 */

export const API_BASE = '/console/api';

/** A failed call: the server's `{ error, code }`, or `NETWORK` when no answer came. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    /** The server's error code (`FORBIDDEN`, `NOT_FOUND`, …), or `NETWORK`/`BAD_RESPONSE`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const UNSAFE: ReadonlySet<Method> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let csrfToken: string | null = null;
let unauthorizedHandler: () => void = () => undefined;

/** Called on every 401 outside the session call itself: the app forgets the user. */
export function onUnauthorized(handler: () => void): void {
  unauthorizedHandler = handler;
}

export interface RequestOptions<T> {
  /** A JSON value, or FormData for uploads (sent as multipart). */
  readonly body?: unknown;
  /** The contract's schema for the response body; without one the body is `unknown`. */
  readonly schema?: z.ZodType<T>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly signal?: AbortSignal;
}

export async function request<T = unknown>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (UNSAFE.has(method)) headers['x-csrf-token'] = csrfToken ?? (await fetchSession()).csrfToken;

  const response = await send(url(path, options.query), {
    method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401) {
      csrfToken = null;
      unauthorizedHandler();
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const json = await readJson(response);
  if (!options.schema) return json as T;
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(response.status, 'BAD_RESPONSE', `Unexpected answer from ${path}`);
  }
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions<T>) => request('GET', path, options),
  post: <T>(path: string, options?: RequestOptions<T>) => request('POST', path, options),
  put: <T>(path: string, options?: RequestOptions<T>) => request('PUT', path, options),
  patch: <T>(path: string, options?: RequestOptions<T>) => request('PATCH', path, options),
  delete: <T>(path: string, options?: RequestOptions<T>) => request('DELETE', path, options),
};

/**
 * Who is signed in, and the CSRF token for the next state-changing request. Signed out is an
 * answer (`user: null`), not an error.
 */
export async function fetchSession(signal?: AbortSignal): Promise<Session> {
  const response = await send(url('/session'), {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) throw await errorOf(response);
  return rememberToken(await readJson(response));
}

/** Keeps the token of a session answer (GET, or a sign-in that rotated the session). */
export function rememberToken(body: unknown): Session {
  const parsed = sessionSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, 'BAD_RESPONSE', 'Unexpected session answer');
  csrfToken = parsed.data.csrfToken;
  return parsed.data;
}

function url(path: string, query?: RequestOptions<unknown>['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  const suffix = text ? `?${text}` : '';
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${suffix}`;
}

async function send(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'NETWORK', 'Nok did not answer; check the connection');
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ApiError(response.status, 'BAD_RESPONSE', 'The answer is not JSON');
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  if (
    body !== null &&
    typeof body === 'object' &&
    'error' in body &&
    'code' in body &&
    typeof body.error === 'string' &&
    typeof body.code === 'string'
  ) {
    return new ApiError(response.status, body.code, body.error);
  }
  return new ApiError(response.status, `HTTP_${response.status}`, response.statusText);
}
