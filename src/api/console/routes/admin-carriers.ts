import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  STATUS_FORGET_MS,
  STATUS_STALE_MS,
  type DispatcherStatus,
  type PublishedStatus,
} from '../../../domain/delivery/status-board.js';
import { carrierTotals } from '../carrier-totals.js';
import {
  carrierSchema,
  dispatcherStatsSchema,
  type LiveDispatcher,
  type SilentDispatcher,
} from '../contract/carriers.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';

const admin = { access: { role: 'admin' } } as const;

/** A published DispatcherStatus as this version reads it; unknown fields are dropped. */
const publishedSchema = z.object({
  carriers: z.array(carrierSchema).readonly(),
  dispatcher: dispatcherStatsSchema,
});
// What a dispatcher publishes must read back here: a field the contract requires and the
// status no longer has fails to compile, not at the first reading.
const _publishedReadsBack = (status: DispatcherStatus): z.input<typeof publishedSchema> => status;

/**
 * The carriers page: every dispatcher process's status as it published it on the status board
 * (ADR 0035), from whichever api process answers, never this process's own memory. Those not
 * heard from for STATUS_STALE_MS are named apart and left out of the figures.
 */
export const adminCarrierRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  consoleRoute(
    app,
    'GET /admin/carriers',
    {
      tags: ['admin'],
      summary:
        "Every dispatcher's carriers (binds, rates) and work, as each publishes its /status, and the queue depth",
      config: admin,
    },
    async (request) => {
      const nowMs = deps.clock.now();
      const [published, queueDepth] = await Promise.all([
        deps.dispatchers.published(nowMs - STATUS_FORGET_MS),
        deps.dispatchers.queueDepth(),
      ]);
      const dispatchers: LiveDispatcher[] = [];
      const silentDispatchers: SilentDispatcher[] = [];
      for (const row of published) {
        const times = {
          owner: row.owner,
          startedAt: new Date(row.startedAt).toISOString(),
          reportedAt: new Date(row.writtenAt).toISOString(),
        };
        if (row.writtenAt < nowMs - STATUS_STALE_MS) {
          silentDispatchers.push(times);
          continue;
        }
        const status = readPublished(row, request.log);
        if (status) {
          dispatchers.push({ ...times, stats: status.dispatcher, carriers: [...status.carriers] });
        }
      }
      return {
        carriers: carrierTotals(dispatchers.map((d) => d.carriers)),
        dispatchers,
        silentDispatchers,
        staleAfterSeconds: STATUS_STALE_MS / 1000,
        queueDepth,
        checkedAt: new Date(nowMs).toISOString(),
      };
    },
  );
};

/** The row's status, or null (logged) when this version cannot read it. */
function readPublished(row: PublishedStatus, log: FastifyBaseLogger) {
  let json: unknown;
  try {
    json = JSON.parse(row.status);
  } catch {
    json = undefined;
  }
  const parsed = publishedSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  log.warn(
    { owner: row.owner, issues: parsed.error.issues.slice(0, 3) },
    'a dispatcher published a status this version cannot read; it is left out',
  );
  return null;
}
