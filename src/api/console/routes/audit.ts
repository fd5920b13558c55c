import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditEvent } from '../../../domain/audit/audit-event.js';
import type { Store } from '../../../domain/ports.js';
import { adminAuditQuerySchema, auditPageSchema, auditQuerySchema } from '../contract/audit.js';
import { errorResponses } from '../contract/common.js';
import type { ConsoleDeps } from '../console-api.js';
import { consoleAccountId } from '../console-session.js';

const tags = ['audit'];

/** The audit log: an owner reads their account's, an admin everyone's. */
export const auditRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, { store }) => {
  app.get(
    '/audit-events',
    {
      schema: {
        tags,
        summary: "The account's audit log, newest first",
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses },
      },
      config: { access: { role: 'owner' } },
    },
    async (request) => {
      const { action, offset, limit } = request.query;
      const accountId = consoleAccountId(request);
      return page(
        store,
        await store.listAuditEvents({ accountId, action, offset, limit }),
        offset,
        limit,
      );
    },
  );

  app.get(
    '/admin/audit-events',
    {
      schema: {
        tags,
        summary: 'Every audit log line, newest first; by account and action',
        querystring: adminAuditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses },
      },
      config: { access: { role: 'admin' } },
    },
    async (request) => {
      const { accountId, action, offset, limit } = request.query;
      return page(
        store,
        await store.listAuditEvents({ accountId, action, offset, limit }),
        offset,
        limit,
      );
    },
  );
};

async function page(
  store: Store,
  result: { items: AuditEvent[]; total: number },
  offset: number,
  limit: number,
) {
  const actorIds = [
    ...new Set(result.items.flatMap((e) => (e.actorUserId === null ? [] : [e.actorUserId]))),
  ];
  const actors = new Map<number, string>();
  for (const id of actorIds) {
    const user = await store.findUser(id);
    if (user) actors.set(id, user.email);
  }
  return {
    items: result.items.map((event) => ({
      ...event,
      at: new Date(event.at).toISOString(),
      actorEmail: event.actorUserId === null ? null : (actors.get(event.actorUserId) ?? null),
    })),
    total: result.total,
    offset,
    limit,
  };
}
