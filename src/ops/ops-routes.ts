import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { sentStoreUnavailable } from '../api/plugins/error-handler.js';
import { installRequestId, requestIdOptions } from '../api/plugins/request-id.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ReadOpsStatus } from './ops-status.js';

export interface OpsDeps {
  /** Absent (NOK_METRICS=off): no /metrics. */
  readonly metrics?: Metrics;
  /** What an operator wants to see at a glance: binds, rates, queue depth. */
  readonly status: ReadOpsStatus;
}

/**
 * The operator listener's app (NOK_OPS_HOST:NOK_OPS_PORT), apart from the customers' API:
 * `/health`, `/metrics` (Prometheus text) and `/status` (JSON). No API key: they are for the
 * operator's network, which the loopback default keeps them on; they show no customer data.
 * It never listens by itself (main.ts decides).
 */
export async function buildOpsApp(logger: Logger, deps: OpsDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    ...requestIdOptions(),
  });
  installRequestId(app);
  // While the store is down, /status and /metrics (which read the queue depth from it) say so
  // with 503 STORE_UNAVAILABLE; /health answers for the process, which is alive.
  app.setErrorHandler((error, request, reply) => {
    if (sentStoreUnavailable(error, request, reply)) return;
    request.log.error({ err: error }, 'unhandled error');
    reply.status(500).send({ error: 'Internal error; see the log', code: 'INTERNAL' });
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ error: `No route ${request.method} ${request.url}`, code: 'NOT_FOUND' });
  });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/status', async () => deps.status());
  if (deps.metrics) {
    const { registry } = deps.metrics;
    app.get('/metrics', async (_request, reply) => {
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  }
  return app;
}
