import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { statusFor } from './error-handler.js';
import { withRequestId } from './request-id.js';

/**
 * A request whose path exists but not for its method answers 405 with `Allow` listing the
 * methods the path serves (RFC 9110 §15.5.6), as `{ error, code: 'METHOD_NOT_ALLOWED' }`. A path
 * no route serves stays a 404. It asks fastify's own router, so every route, present or
 * future, is covered as it is matched. It runs before the body is read: a 405 never depends on
 * what the body holds.
 */
export function installMethodNotAllowed(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const refusal = methodNotAllowed(app, request.method, request.url);
    if (!refusal) return;
    return reply
      .status(refusal.status)
      .header('allow', refusal.allow)
      .header('content-type', 'application/json; charset=utf-8')
      .send(refusal.body);
  });
}

interface Refusal {
  readonly status: number;
  readonly allow: string;
  readonly body: string;
}

/** The 405 for `method` on `url`, or null when the method is served there or the path is not. */
function methodNotAllowed(app: FastifyInstance, method: string, url: string): Refusal | null {
  const path = url.split('?')[0] ?? '';
  const allowed = app.supportedMethods.filter((m) => m !== method && serves(app, m, path)).sort();
  if (allowed.length === 0) return null;
  return {
    status: statusFor('METHOD_NOT_ALLOWED'),
    allow: allowed.join(', '),
    body: JSON.stringify({
      error: `${path} does not serve ${method}; it serves ${allowed.join(', ')}`,
      code: 'METHOD_NOT_ALLOWED',
    }),
  };
}

/**
 * Whether a route of its own serves `method` at `path`. A catch-all (`/console/*`) does not
 * count: it serves whatever pages its handler decides (and answers 404 for the rest), so a path
 * it catches is no resource of its own to list methods for.
 */
function serves(app: FastifyInstance, method: string, path: string): boolean {
  const found = app.findRoute({ method, url: path });
  return found !== null && !Object.hasOwn(found.params, '*');
}

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/;

/**
 * Node's HTTP parser refuses a method it does not know (`FOO /api/v2/sms`) before fastify
 * routes anything. Pass this as fastify's `clientErrorHandler`: such a request gets the answer a
 * known but unserved method gets (405 with `Allow`, or 404 for an unknown path), in the same
 * `{ error, code }` shape. Other client errors keep fastify's answer.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const line =
    error.code === 'HPE_INVALID_METHOD' && Buffer.isBuffer(error.rawPacket)
      ? REQUEST_LINE.exec(error.rawPacket.subarray(0, 8192).toString('latin1'))
      : null;
  let status = 400;
  let body = JSON.stringify({ error: 'The request is not valid HTTP', code: 'INVALID_PARAMETER' });
  let allow = '';
  if (line) {
    const [, method = '', url = ''] = line;
    const refusal = methodNotAllowed(this, method, url);
    if (refusal) ({ status, allow, body } = refusal);
    else {
      status = statusFor('NOT_FOUND');
      body = JSON.stringify({
        error: `No route ${method} ${url.split('?')[0]}`,
        code: 'NOT_FOUND',
      });
    }
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = JSON.stringify({
      error: 'The request headers are too large',
      code: 'INVALID_PARAMETER',
    });
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = JSON.stringify({
      error: 'The request took too long to arrive',
      code: 'INVALID_PARAMETER',
    });
  }
  // No request reached fastify: the id is made here, for the answer and the log line alike.
  const requestId = randomUUID();
  body = withRequestId(body, requestId);
  this.log.info({ requestId, err: error }, 'refused a request that is not valid HTTP');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${allow ? `Allow: ${allow}\r\n` : ''}` +
        `X-Request-Id: ${requestId}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
