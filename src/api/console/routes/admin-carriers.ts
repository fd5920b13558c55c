import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { carriersStatusSchema } from '../contract/carriers.js';
import { errorResponses } from '../contract/common.js';
import type { ConsoleDeps } from '../console-api.js';

const admin = { access: { role: 'admin' } } as const;

/**
 * The carriers page: the operator status of this process, read from the same function as the
 * operator listener's /status (never over HTTP to it), so the two cannot disagree.
 */
export const adminCarrierRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  app.get(
    '/admin/carriers',
    {
      schema: {
        tags: ['admin'],
        summary: "Carriers' binds and rates, the dispatcher and the queue depth (as /status)",
        response: { 200: carriersStatusSchema, ...errorResponses },
      },
      config: admin,
    },
    async () => {
      const status = deps.opsStatus ? await deps.opsStatus() : null;
      return {
        carriers: (status?.carriers ?? []).map((carrier) => ({ ...carrier })),
        dispatcher: status?.dispatcher ?? null,
        queueDepth: status?.queueDepth ?? 0,
        checkedAt: new Date(deps.clock.now()).toISOString(),
      };
    },
  );
};
