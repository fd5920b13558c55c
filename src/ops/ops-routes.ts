import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
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
    logController: new LogController({ disableRequestLogging: true }),
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
