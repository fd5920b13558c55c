import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';

/**
 * Every request has an id: the client's `X-Request-Id` when it is well formed (a proxy's or the
 * client's own, so one id follows the request through them), a fresh uuid otherwise. Fastify
 * puts it on every line its request logger writes (`requestId=…`); every answer carries it in
 * `X-Request-Id`, and every error body names it as `requestId`, so "see the log" points at
 * the lines of that one request.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may be: short, printable, nothing a log line or a header could misread. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the incoming well-formed one, else a fresh uuid. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && WELL_FORMED.test(incoming) ? incoming : randomUUID();
}

/**
 * Fastify's options for the ids and the request logger: spread them into `Fastify({ ... })` of
 * every listener. Fastify's own lines per request stay off; its request logger (`request.log`)
 * labels every line with `requestId`.
 */
export function requestIdOptions() {
  return {
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'requestId',
    }),
  } as const;
}

/**
 * Installs on the root app, before any route: the header on every answer, and `requestId` in
 * every JSON error body `{ error, code }`, whichever route, hook or handler wrote it.
 */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (reply.statusCode < 400 || typeof payload !== 'string' || !isJson(reply)) return payload;
    return withRequestId(payload, request.id);
  });
}

/** An error body `{ error, code }` with `requestId` after them; anything else as it is. */
export function withRequestId(payload: string, requestId: string): string {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return payload;
  if (!('error' in body) || !('code' in body) || 'requestId' in body) return payload;
  return JSON.stringify({ ...body, requestId });
}

function isJson(reply: { getHeader(name: string): unknown }): boolean {
  return /^application\/json/.test(String(reply.getHeader('content-type') ?? ''));
}
