// Posts one webhook request to a customer's URL, safely: the URL is the customer's, the network
// Nok posts from is the operator's.
//
// - Server-side request forgery: the target's addresses are checked (target-address.ts) and a
//   name with any refused address is refused, so a customer cannot aim Nok at its loopback,
//   the private network or the cloud metadata service.
// - DNS rebinding: the name is resolved once, and the connection goes to the addresses that
//   were checked (a `lookup` that hands them back), never to a second answer the customer's DNS
//   server could change in between. TLS still checks the certificate against the name.
// - No redirects: a redirect would lead to an address nobody checked.
// - One deadline for everything (DNS, connecting, the answer), and only the start of the answer
//   is read, so a slow or huge answer cannot hold a delivery slot.
// - Connections are kept alive between requests to the same host and port (a new TCP
//   connection per event was most of a delivery's cost). Every connection was opened to an
//   address checked when it was opened, and the name is still resolved and checked before each
//   request. A connection cut short (a huge answer, a timeout, an error) is destroyed; an idle
//   one is closed after KEEP_ALIVE_IDLE_MS, before most servers close theirs; a request whose
//   reused connection the server had closed meanwhile is sent once more on a new one.
//
// Nothing the target does makes this throw: every outcome is a WebhookPostResult.
import { promises as dns, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CutShortError, startDeadline, TimedOut, type Deadline } from './deadline.js';
import { refusedAddress } from './target-address.js';

export { refusedAddress };

export interface WebhookPost {
  readonly url: string;
  /** webhook-id, webhook-timestamp, webhook-signature, content-type are given by the caller. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole request: resolving, connecting, answer head and the read body. */
  readonly timeoutMs: number;
  /** NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS */
  readonly allowPrivate: boolean;
  /** Ends the request before its timeout: the deliverer's stop, once its drain is over. */
  readonly cutShort?: CutShort;
}

/** A signal that cuts requests short; each request listens while it runs. */
export interface CutShort {
  /** Calls `listener` once when requests are cut; returns what stops listening. */
  onCut(listener: () => void): () => void;
}

export interface WebhookPostResult {
  /** 2xx */
  readonly ok: boolean;
  /** null when no answer came (refused target, DNS failure, connection error, timeout). */
  readonly statusCode: number | null;
  readonly latencyMs: number;
  /** From Retry-After (delta-seconds or an HTTP date), only on 429 and 503; null otherwise or when absent/unreadable. Capped at 24 hours. */
  readonly retryAfterMs: number | null;
  /** The start of the answer's body, at most 1,000 characters (UTF-8 decoded, invalid bytes replaced). null when no answer. */
  readonly response: string | null;
  /** Why it failed, for the operator and the customer's console. null when ok. */
  readonly error: string | null;
  /** true when the target may not be posted to at all (a refused address, a URL that is not http(s)); the caller treats it as a failure like any other. */
  readonly refused: boolean;
}

/** Resolves a host name to its addresses; the default is dns.promises.lookup(host, { all: true, verbatim: true }). A port for tests. */
export type ResolveHost = (host: string) => Promise<readonly { address: string; family: 4 | 6 }[]>;

type Address = Awaited<ReturnType<ResolveHost>>[number];

const RESPONSE_CHARS = 1_000;
/** A UTF-8 character is at most 4 bytes: this many bytes always hold RESPONSE_CHARS of them. */
const RESPONSE_BYTES = RESPONSE_CHARS * 4;
const RETRY_AFTER_CAP_MS = 24 * 60 * 60 * 1_000;
const USER_AGENT = 'Nok-Webhooks/1';

/** How long an idle kept-alive connection stays open: under Node's 5 s, nginx's 75 s. */
const KEEP_ALIVE_IDLE_MS = 4_000;
// The agents' `timeout` closes free sockets only; a request's own time is the deadline's.
const HTTP_AGENT = new HttpAgent({
  keepAlive: true,
  scheduling: 'lifo',
  timeout: KEEP_ALIVE_IDLE_MS,
});
const HTTPS_AGENT = new HttpsAgent({
  keepAlive: true,
  scheduling: 'lifo',
  timeout: KEEP_ALIVE_IDLE_MS,
});

export async function postWebhook(
  post: WebhookPost,
  resolve: ResolveHost = lookupAll,
): Promise<WebhookPostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = startDeadline(post.timeoutMs);
  const stopListening = post.cutShort?.onCut(() => deadline.expire(new CutShortError()));
  try {
    const url = targetUrl(post.url);
    if (typeof url === 'string') return refused(`refused: ${url}`, elapsed());
    const addresses = await deadline.race(checkedAddresses(url, post.allowPrivate, resolve));
    if ('refusal' in addresses) return refused(addresses.refusal, elapsed());
    if ('failure' in addresses) return failed(addresses.failure, elapsed());
    const body = Buffer.from(post.body);
    const answer = await exchange(url, addresses.list, post, body, deadline).catch(
      (error: unknown) => {
        // The server closed a kept-alive connection as this request went out on it: once more,
        // on a connection of its own.
        if (!(error instanceof StaleConnection)) throw error;
        return exchange(url, addresses.list, post, body, deadline, { fresh: true });
      },
    );
    return answered(answer, elapsed());
  } catch (error) {
    return failed(describeFailure(error, post.timeoutMs), elapsed());
  } finally {
    stopListening?.();
    deadline.stop();
  }
}

/** The parsed URL, or why it may not be a webhook target. */
function targetUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https URLs may be webhook targets, not ${url.protocol}`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'a webhook URL may not carry a user name or password';
  }
  return url;
}

/** The URL's host name without the brackets of an IPv6 literal. */
function hostName(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

type CheckedAddresses =
  | { readonly list: readonly Address[] }
  | { readonly refusal: string }
  | { readonly failure: string };

/** The target's addresses, each of them allowed, or why not. A name is resolved exactly once. */
async function checkedAddresses(
  url: URL,
  allowPrivate: boolean,
  resolve: ResolveHost,
): Promise<CheckedAddresses> {
  const host = hostName(url);
  const family = isIP(host);
  if (family === 4 || family === 6) {
    const reason = refusedAddress(host, allowPrivate);
    return reason === null
      ? { list: [{ address: host, family }] }
      : { refusal: `refused: ${host} is ${reason}` };
  }
  let list: readonly Address[];
  try {
    list = await resolve(host);
  } catch (error) {
    return { failure: describeDnsFailure(host, error) };
  }
  if (list.length === 0) return { failure: `DNS: no address for ${host}` };
  for (const { address } of list) {
    const reason = refusedAddress(address, allowPrivate);
    if (reason !== null) return { refusal: `refused: ${host} resolves to ${address}, ${reason}` };
  }
  return { list };
}

async function lookupAll(host: string): Promise<readonly Address[]> {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

function describeDnsFailure(host: string, error: unknown): string {
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'ENODATA') return `DNS: no address for ${host}`;
  if (code !== undefined) return `DNS: lookup of ${host} failed (${code})`;
  return `DNS: lookup of ${host} failed (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * Hands the connection the checked addresses instead of asking DNS again. All of them when
 * asked for all (Node then tries them in turn, happy-eyeballs style); one of the asked family
 * otherwise.
 */
function pinnedLookup(addresses: readonly Address[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = addresses.filter(({ family }) => wanted === 0 || family === wanted);
    const [first] = usable;
    if (first === undefined) {
      callback(
        Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }),
        '',
      );
    } else if (options.all === true) {
      callback(
        null,
        usable.map((entry): LookupAddress => ({ ...entry })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** A request sent on a kept-alive connection that the server had closed. */
class StaleConnection extends Error {}

function isConnectionReset(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED';
}

interface Answer {
  readonly statusCode: number;
  readonly location: string | undefined;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** Sends the POST and reads the answer's head and the start of its body. */
function exchange(
  url: URL,
  addresses: readonly Address[],
  post: WebhookPost,
  body: Buffer,
  deadline: Deadline,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (deadline.expiredWith) return reject(deadline.expiredWith);
    const options = requestOptions(url, addresses, post.headers, body.length, fresh);
    const request = url.protocol === 'https:' ? httpsRequest(options) : httpRequest(options);
    let settled = false;
    // Whatever the outcome, the socket goes with the request: nothing is left open behind.
    // The connection goes with the request unless its answer was read whole: then it serves
    // the next request to the same host.
    const settle = (outcome: () => void, keep = false) => {
      if (settled) return;
      settled = true;
      stopWaiting();
      if (!keep) request.destroy();
      outcome();
    };
    const stopWaiting = deadline.onExpire((error) => settle(() => reject(error)));
    let answered = false;
    request.on('error', (error) =>
      settle(() =>
        reject(
          request.reusedSocket && !answered && isConnectionReset(error)
            ? new StaleConnection()
            : error,
        ),
      ),
    );
    request.on('response', (response) => {
      answered = true;
      readStart(response).then(({ body, whole }) =>
        settle(
          () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              location: response.headers.location,
              retryAfter: response.headers['retry-after'],
              body,
            }),
          whole,
        ),
      );
    });
    request.end(body);
  });
}

function requestOptions(
  url: URL,
  addresses: readonly Address[],
  headers: WebhookPost['headers'],
  contentLength: number,
  fresh: boolean,
): RequestOptions {
  const host = hostName(url);
  return {
    method: 'POST',
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: {
      ...headers,
      host: url.host,
      'content-length': String(contentLength),
      'user-agent': USER_AGENT,
    },
    // Pooled by host and port: each pooled connection was opened through `lookup` below, to an
    // address checked then.
    agent: fresh ? false : url.protocol === 'https:' ? HTTPS_AGENT : HTTP_AGENT,
    lookup: pinnedLookup(addresses),
    // TLS checks the certificate against the name, not the address connected to. An IP
    // literal is not sent as SNI.
    ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
  };
}

/**
 * The start of the body, at most RESPONSE_CHARS characters. Stops reading (and destroys the
 * answer) once it has enough: a huge answer is not downloaded. A body cut short by the target
 * still gives what came; the head already told how the target answered.
 */
function readStart(response: IncomingMessage): Promise<{ body: string; whole: boolean }> {
  return new Promise((resolve) => {
    const decoder = new TextDecoder('utf-8');
    let text = '';
    let bytes = 0;
    let done = false;
    /** `whole`: the answer ended, and its connection may serve another request. */
    const finish = (flush: boolean, whole = false) => {
      if (done) return;
      done = true;
      if (flush) text += decoder.decode();
      if (!whole) response.destroy();
      resolve({ body: firstChars(text, RESPONSE_CHARS), whole });
    };
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      const part = chunk.subarray(0, RESPONSE_BYTES - bytes);
      bytes += part.length;
      text += decoder.decode(part, { stream: true });
      if (bytes >= RESPONSE_BYTES) finish(false);
    });
    response.on('end', () => finish(true, true));
    response.on('error', () => finish(true));
    response.on('close', () => finish(true));
  });
}

/** The first `count` UTF-16 units of `text`, without splitting a surrogate pair. */
function firstChars(text: string, count: number): string {
  if (text.length <= count) return text;
  const last = text.charCodeAt(count - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? count - 1 : count);
}

function answered(answer: Answer, latencyMs: number): WebhookPostResult {
  const { statusCode } = answer;
  const ok = statusCode >= 200 && statusCode <= 299;
  return {
    ok,
    statusCode,
    latencyMs,
    retryAfterMs:
      statusCode === 429 || statusCode === 503 ? retryAfterMs(answer.retryAfter, Date.now()) : null,
    response: answer.body,
    error: ok ? null : answerError(answer),
    refused: false,
  };
}

function answerError({ statusCode, location }: Answer): string {
  const redirect = statusCode >= 300 && statusCode <= 399;
  if (redirect && location !== undefined && location !== '') {
    return `redirect to ${location} not followed`;
  }
  return `answered ${statusCode}`;
}

/** Retry-After as delta-seconds or an HTTP date (a date past is 0), capped; null when unreadable. */
function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1_000, RETRY_AFTER_CAP_MS);
  // HTTP dates start with the day's name; Date.parse alone would read "1.5" as a date. The
  // asctime form has no zone and is GMT, not local time.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return null;
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(at - now, 0), RETRY_AFTER_CAP_MS);
}

function refused(error: string, latencyMs: number): WebhookPostResult {
  return { ...failed(error, latencyMs), refused: true };
}

/** A failure without an answer. */
function failed(error: string, latencyMs: number): WebhookPostResult {
  return {
    ok: false,
    statusCode: null,
    latencyMs,
    retryAfterMs: null,
    response: null,
    error,
    refused: false,
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof TimedOut) return `timed out after ${timeoutMs} ms`;
  if (error instanceof CutShortError) return 'cut short: Nok stopped before the answer came';
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to host';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case undefined:
      return `connection error: ${message}`;
    default:
      if (code.startsWith('HPE_')) return `not an HTTP answer (${code})`;
      if (/CERT|SSL|TLS|SELF_SIGNED|HOSTNAME/.test(code)) return `TLS: ${message} (${code})`;
      return `connection error: ${message} (${code})`;
  }
}

/** The error's code; with several addresses tried, Node reports an AggregateError of them all. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) return errorCode(errors[0]);
  return undefined;
}
