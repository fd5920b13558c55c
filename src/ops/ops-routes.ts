import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.js';

export interface OpsDeps {
  readonly metrics?: Metrics;
  /** What an operator wants to see at a glance: binds, rates, queue depth. */
  readonly status: () => Promise<object>;
}

/**
 * Operator endpoints: `/metrics` (Prometheus text) and `/status` (JSON). No API key: like
 * /health they are for the operator's network, not for customers; they show no customer data.
 */
export function opsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  if (deps.metrics) {
    const { registry } = deps.metrics;
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  }
  app.get('/status', { schema: { hide: true } }, async () => deps.status());
}

/** The ops endpoints alone, for a process without the API (`nok dispatcher`). */
export async function buildOpsApp(logger: Logger, deps: OpsDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get('/health', async () => ({ status: 'ok' }));
  opsRoutes(app, deps);
  return app;
}
