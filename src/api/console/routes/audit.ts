import type { FastifyPluginAsync } from 'fastify';
import type { AuditFilter } from '../../../domain/audit/audit-event.js';
import { listAuditLog } from '../../../domain/audit/list-audit-log.js';
import type { Store } from '../../../domain/store.js';
import { type AuditPage } from '../contract/audit.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { consoleAccountId } from '../console-session.js';

const tags = ['audit'];
const description =
  'Paged by cursor: pass the `nextCursor` of a page as `cursor` for the older one. `action` is one action (`api-key.create`) or a family ending in a dot (`session.`); `from` (inclusive) and `to` (exclusive) bound the time.';

/** The audit log: an owner reads their account's, an admin everyone's. */
export const auditRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { store }) => {
  consoleRoute(
    app,
    'GET /audit-events',
    {
      tags,
      summary: "The account's audit log, newest first",
      description,
      config: { access: { role: 'owner' } },
    },
    async (request) => auditPage(store, { ...request.query, accountId: consoleAccountId(request) }),
  );

  consoleRoute(
    app,
    'GET /admin/audit-events',
    {
      tags,
      summary: 'Every audit log line, newest first; by account, action and time',
      description,
      config: { access: { role: 'admin' } },
    },
    async (request) => auditPage(store, request.query),
  );
};

async function auditPage(
  store: Store,
  query: {
    accountId?: number;
    action?: string;
    from?: string;
    to?: string;
    cursor?: string;
    limit: number;
  },
): Promise<AuditPage> {
  const filter: AuditFilter = {
    accountId: query.accountId,
    action: query.action,
    fromMs: query.from === undefined ? undefined : Date.parse(query.from),
    toMs: query.to === undefined ? undefined : Date.parse(query.to),
  };
  const page = await listAuditLog(store, { ...filter, cursor: query.cursor, limit: query.limit });
  return {
    data: page.items.map((event) => ({ ...event, at: new Date(event.at).toISOString() })),
    nextCursor: page.nextCursor,
  };
}
