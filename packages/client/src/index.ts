// A typed client for Nok's HTTP API (/api/v2). Its types are those of the document the server
// serves (openapi.ts, generated); it uses only `fetch`, so it runs on Node 20+ and in browsers.
import type { components, paths, webhooks } from './openapi.js';

export type { components, paths, webhooks } from './openapi.js';

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: infer R };
}
  ? JsonOf<R>
  : never;
type Body<P extends keyof paths> = paths[P]['post'] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export type SendRequest = Body<'/api/v2/sms/send'>;
export type SendResult = Ok<'/api/v2/sms/send', 'post'>;
/** A send accepted: the message's uuid, its cost charged. */
export type Sent = Extract<SendResult, { uuid: string }>;
/** A dry run's answer: what the send would cost; nothing stored. */
export type Estimate = Exclude<SendResult, { uuid: string }>;
export interface SendOptions {
  readonly idempotencyKey?: string;
}
export type PreviewRequest = Body<'/api/v2/sms/preview-cost'>;
export type Preview = Ok<'/api/v2/sms/preview-cost', 'post'>;
export type MessagePage = Ok<'/api/v2/sms', 'get'>;
export type MessageSummary = MessagePage['data'][number];
export type MessageQuery = Query<'/api/v2/sms'>;
export type Message = Ok<'/api/v2/sms/{uuid}', 'get'>;
export type RecipientPage = Ok<'/api/v2/sms/{uuid}/recipients', 'get'>;
export type Recipient = RecipientPage['data'][number];
export type RecipientQuery = Query<'/api/v2/sms/{uuid}/recipients'>;
export type ExportQuery = Query<'/api/v2/sms/{uuid}/recipients/export'>;
export type Cancelled = Ok<'/api/v2/sms/{uuid}/cancel', 'post'>;
export type Balance = Ok<'/api/v2/sms/credit/balance', 'get'>;
export type Senders = Ok<'/api/v2/senders', 'get'>;
export type ErrorBody = components['schemas']['Error'];
/** Nok's error codes, and `HTTP_ERROR` for an answer that was not Nok's (a proxy's, say). */
export type ErrorCode = ErrorBody['code'] | 'HTTP_ERROR';
export type RecipientStatus = Recipient['status'];

/** An answer of Nok's that is not a success: its status, `code` and the request's id. */
export class NokError extends Error {
  override readonly name = 'NokError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

export interface NokOptions {
  /** Where Nok answers, e.g. `https://sms.example.com` (without /api/v2). */
  readonly url: string;
  readonly apiKey: string;
  /** Tries of a request that may be repeated safely, the first included (default 5). */
  readonly attempts?: number;
  /** The first wait between tries, doubled each time, with jitter (default 500 ms). */
  readonly retryDelayMs?: number;
  /** The longest wait between tries, also for a server's `Retry-After` (default 60 s). */
  readonly maxRetryDelayMs?: number;
  readonly fetch?: typeof fetch;
  /** How the client waits between tries (default: a timer); for tests that hold time. */
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Record<string, unknown> | undefined;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /**
   * Whether the request may be sent again after a network error or a 5xx: a read, or a send
   * with its Idempotency-Key. A 429 is always waited out and tried again: nothing was done.
   */
  readonly repeatable: boolean;
}

/**
 * Nok's /api/v2. `send` gives each send an Idempotency-Key (unless one is given) and tries it
 * again after a network error, a 5xx or a 429, so a send is charged once however often it is
 * tried; reads are tried again the same way; `cancel` only after a 429. Lists are async
 * iterators that read page after page; `exportRecipients` streams.
 */
export class Nok {
  readonly #url: string;
  readonly #apiKey: string;
  readonly #attempts: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: NokOptions) {
    this.#url = options.url.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#attempts = Math.max(1, options.attempts ?? 5);
    this.#retryDelayMs = options.retryDelayMs ?? 500;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#sleep = options.sleep ?? sleep;
  }

  /**
   * Sends a message (with `dryRun`, only its cost estimate); `idempotencyKey` defaults to a new
   * random one, kept across its tries.
   */
  send(request: SendRequest & { dryRun: true }, options?: SendOptions): Promise<Estimate>;
  send(request: SendRequest & { dryRun?: false }, options?: SendOptions): Promise<Sent>;
  send(request: SendRequest, options?: SendOptions): Promise<SendResult>;
  async send(request: SendRequest, options: SendOptions = {}): Promise<SendResult> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    return this.#json<SendResult>({
      method: 'POST',
      path: '/sms/send',
      body: request,
      headers: { 'idempotency-key': key },
      repeatable: true,
    });
  }

  previewCost(request: PreviewRequest): Promise<Preview> {
    return this.#json({
      method: 'POST',
      path: '/sms/preview-cost',
      body: request,
      repeatable: true,
    });
  }

  /** One page of the account's messages, most recent first. */
  messagePage(query: MessageQuery = {}): Promise<MessagePage> {
    return this.#json({ method: 'GET', path: '/sms', query, repeatable: true });
  }

  /** Every message the query finds, page after page. */
  async *messages(query: Omit<MessageQuery, 'page'> = {}): AsyncGenerator<MessageSummary> {
    for (let page = 1; ; page++) {
      const answer = await this.messagePage({ ...query, page });
      yield* answer.data;
      if (page >= answer.totalPages) return;
    }
  }

  message(uuid: string): Promise<Message> {
    return this.#json({
      method: 'GET',
      path: `/sms/${encodeURIComponent(uuid)}`,
      repeatable: true,
    });
  }

  /** One page of a message's recipients (with `after`, by cursor). */
  recipientPage(uuid: string, query: RecipientQuery = {}): Promise<RecipientPage> {
    return this.#json({
      method: 'GET',
      path: `/sms/${encodeURIComponent(uuid)}/recipients`,
      query,
      repeatable: true,
    });
  }

  /** Every recipient of a message (or of a status, or a number's part), by cursor, each once. */
  async *recipients(
    uuid: string,
    query: Omit<RecipientQuery, 'after'> = {},
  ): AsyncGenerator<Recipient> {
    for (let after = 0; ;) {
      const page = await this.recipientPage(uuid, { ...query, after });
      yield* page.data;
      if (!page.hasMore || page.nextCursor === undefined) return;
      after = page.nextCursor;
    }
  }

  /**
   * Every recipient of a message as the export streams it (CSV by default, or NDJSON), a line
   * at a time without its line break (CSV's header line first). Ends with an error when the
   * stream is cut before its last line.
   */
  async *exportLines(uuid: string, query: ExportQuery = {}): AsyncGenerator<string> {
    const response = await this.#send({
      method: 'GET',
      path: `/sms/${encodeURIComponent(uuid)}/recipients/export`,
      query,
      repeatable: true,
    });
    if (!response.body) return;
    const decoder = new TextDecoder();
    let rest = '';
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
    }
    rest += decoder.decode();
    if (rest !== '') throw new Error('the export ended before its last line did');
  }

  /** Every recipient of a message from the NDJSON export: one request, however many. */
  async *exportRecipients(
    uuid: string,
    query: Omit<ExportQuery, 'format'> = {},
  ): AsyncGenerator<Recipient> {
    for await (const line of this.exportLines(uuid, { ...query, format: 'ndjson' })) {
      yield JSON.parse(line) as Recipient;
    }
  }

  cancel(uuid: string): Promise<Cancelled> {
    return this.#json({
      method: 'POST',
      path: `/sms/${encodeURIComponent(uuid)}/cancel`,
      repeatable: false,
    });
  }

  balance(): Promise<Balance> {
    return this.#json({ method: 'GET', path: '/sms/credit/balance', repeatable: true });
  }

  senders(): Promise<Senders> {
    return this.#json({ method: 'GET', path: '/senders', repeatable: true });
  }

  async #json<T>(call: Call): Promise<T> {
    return (await (await this.#send(call)).json()) as T;
  }

  /** Sends a call, trying it again as `repeatable` allows; a 2xx response, or throws. */
  async #send(call: Call): Promise<Response> {
    const url = new URL(`${this.#url}/api/v2${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-api-key': this.#apiKey,
      ...call.headers,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.#attempts;
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: call.method,
          headers,
          ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
        });
      } catch (error) {
        if (last || !call.repeatable) throw error;
        await this.#sleep(this.#backoff(attempt));
        continue;
      }
      if (response.ok) return response;
      const again = response.status === 429 || (response.status >= 500 && call.repeatable);
      if (!again || last) throw await errorOf(response);
      await response.body?.cancel();
      await this.#sleep(
        Math.min(this.#maxRetryDelayMs, retryAfterMs(response) ?? this.#backoff(attempt)),
      );
    }
  }

  #backoff(attempt: number): number {
    const full = Math.min(this.#maxRetryDelayMs, this.#retryDelayMs * 2 ** (attempt - 1));
    return full / 2 + Math.random() * (full / 2);
  }
}

/** The wait a 429 or 503 asks for (`Retry-After`: seconds or an HTTP date), if any. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

async function errorOf(response: Response): Promise<NokError> {
  const text = await response.text();
  let body: Partial<ErrorBody> = {};
  try {
    body = JSON.parse(text) as Partial<ErrorBody>;
  } catch {
    // Not Nok's answer (a proxy's, say): its status is all there is.
  }
  return new NokError(
    response.status,
    body.code ?? 'HTTP_ERROR',
    body.error ?? `HTTP ${response.status}: ${text.slice(0, 200)}`,
    body.requestId ?? response.headers.get('x-request-id') ?? undefined,
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhooks.js';

/** The types of the events Nok posts to a webhook endpoint. */
export type WebhookEventType = keyof webhooks;
/**
 * The body of one event type, `{ type, timestamp, data }`, as the OpenAPI document's `webhooks`
 * describes it.
 */
export type WebhookEventOf<T extends WebhookEventType> = webhooks[T]['post'] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
/**
 * Any event Nok posts; `type` tells which, and narrows `data`:
 * `const event = await verifyWebhook<WebhookEvent>(body, headers, secret)`.
 */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];
