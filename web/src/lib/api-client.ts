import type { Endpoint } from '@contract/endpoint';
import { splitKey } from '@contract/endpoint';
import {
  consoleEndpoints,
  type ConsoleEndpointKey,
  type DownloadKey,
  type FileUploadKey,
  type InputOf,
  type JsonEndpointKey,
  type OutputOf,
} from '@contract/endpoints';
import type { Session } from '@contract/session';

/**
 * The one place the console calls its API (`/console/api`). A route is called by its key in the
 * contract's map (`call('DELETE /keys/:keyId', { params: { keyId } })`), the same map the server
 * declares its routes from: the key fixes at compile time the params, query and body it takes
 * and the answer it gives, and every answer is parsed with the route's own schema. The session
 * cookie goes on same-origin requests only, the CSRF token on every state-changing request, and
 * every failure becomes an `ApiError`. A 401 tells the app the session is gone
 * (`onUnauthorized`), which sends the user to sign in; a 403 TOTP_ENROLMENT_REQUIRED makes it
 * read the session again, which sends them to enrol.
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

let csrfToken: string | null = null;
let unauthorizedHandler: () => void = () => undefined;

/** Called on every 401: the app forgets the user. */
export function onUnauthorized(handler: () => void): void {
  unauthorizedHandler = handler;
}

/** What any call may add: a signal that aborts it. */
interface CallOptions {
  readonly signal?: AbortSignal;
}

type Args<K extends ConsoleEndpointKey, Extra = CallOptions> = object extends InputOf<K> & Extra
  ? [input?: InputOf<K> & Extra]
  : [input: InputOf<K> & Extra];

/** Every field a call's input may have, for the code that reads any of them. */
interface AnyInput extends CallOptions {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly form?: unknown;
  readonly files?: readonly File[];
}

/** Calls a route that answers JSON: the body or form its key takes, the answer it gives. */
export async function call<K extends JsonEndpointKey>(
  key: K,
  ...[input]: Args<K>
): Promise<OutputOf<K>> {
  const endpoint: Endpoint = consoleEndpoints[key];
  const { method } = splitKey(key);
  const given: AnyInput = input ?? {};
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  const upload = endpoint.upload;
  if (upload?.kind === 'multipart') {
    const form = new FormData();
    form.append(upload.formField, JSON.stringify(given.form));
    for (const file of given.files ?? []) form.append(upload.fileField, file, file.name);
    body = form;
  } else if (endpoint.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(given.body);
  }
  if (method !== 'GET') headers['x-csrf-token'] = await currentCsrfToken();

  const response = await send(urlOf(key, given), {
    method,
    headers,
    body,
    credentials: 'same-origin',
    signal: given.signal,
  });
  if (!response.ok) throw failed(response.status, await response.json().catch(() => null));
  // 204 No Content: nothing to read (its entry's answer is `z.undefined()`).
  if (response.status === 204) return parsed(key, endpoint, 204, undefined);
  return parsed(key, endpoint, response.status, await readJson(response));
}

/**
 * Sends a file as the request body, as it is on disk (the browser never reads it), with
 * XMLHttpRequest so that `onProgress` hears the share of bytes sent, 0 to 1. The server reads it
 * as it arrives. CSV when the file says so, else one number a line.
 */
export async function uploadFile<K extends FileUploadKey>(
  key: K,
  ...[input]: Args<
    K,
    CallOptions & { readonly file: File; readonly onProgress: (fraction: number) => void }
  >
): Promise<OutputOf<K>> {
  const endpoint: Endpoint = consoleEndpoints[key];
  const { file, onProgress, signal, ...rest } = input!;
  const token = await currentCsrfToken();
  const type = file.type === 'text/csv' || /\.csv$/i.test(file.name) ? 'text/csv' : 'text/plain';
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(splitKey(key).method, urlOf(key, rest));
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.setRequestHeader('content-type', type);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(failed(xhr.status, xhr.response));
      try {
        const answer = parsed(key, endpoint, xhr.status, xhr.response);
        onProgress(1);
        resolve(answer);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(failed(0, null));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.send(file);
  });
}

/** The address of a download (a CSV export): a plain GET the browser saves itself. */
export function hrefOf<K extends DownloadKey>(key: K, ...[input]: Args<K, unknown>): string {
  return urlOf(key, (input ?? {}) as AnyInput);
}

/** The session's CSRF token, read from the server when this page has none yet. */
async function currentCsrfToken(): Promise<string> {
  return csrfToken ?? (await fetchSession()).csrfToken;
}

/**
 * Who is signed in, and the CSRF token for the next state-changing request. Signed out is an
 * answer (`user: null`), not an error.
 */
export async function fetchSession(signal?: AbortSignal): Promise<Session> {
  return rememberToken(await call('GET /session', { signal }));
}

/** Keeps the token of a session answer (GET, or a sign-in that rotated the session). */
export function rememberToken(session: Session): Session {
  csrfToken = session.csrfToken;
  return session;
}

function urlOf(key: ConsoleEndpointKey, input: AnyInput): string {
  const path = splitKey(key).path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(input.params?.[name])),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return `${API_BASE}${path}${text ? `?${text}` : ''}`;
}

function parsed<K extends ConsoleEndpointKey>(
  key: K,
  endpoint: Endpoint,
  status: number,
  json: unknown,
): OutputOf<K> {
  const result = endpoint.response.safeParse(json);
  if (!result.success) throw new ApiError(status, 'BAD_RESPONSE', `Unexpected answer to ${key}`);
  return result.data as OutputOf<K>;
}

/** The `ApiError` of a failed answer; a 401 also tells the app the session is gone. */
function failed(status: number, body: unknown): ApiError {
  if (status === 401) {
    csrfToken = null;
    unauthorizedHandler();
  }
  const error = errorOf(status, body);
  // Two-factor sign-in became required (an owner just said so): the session, read again,
  // says so, and the app sends the person to set it up.
  if (error.code === 'TOTP_ENROLMENT_REQUIRED') unauthorizedHandler();
  return error;
}

function errorOf(status: number, body: unknown): ApiError {
  if (
    body !== null &&
    typeof body === 'object' &&
    'error' in body &&
    'code' in body &&
    typeof body.error === 'string' &&
    typeof body.code === 'string'
  ) {
    return new ApiError(status, body.code, body.error);
  }
  if (status === 0) return new ApiError(0, 'NETWORK', 'Nok did not answer; check the connection');
  return new ApiError(status, `HTTP_${status}`, 'Unexpected answer');
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
