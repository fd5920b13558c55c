import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  addToBlocklist,
  importToBlocklist,
  PLATFORM_SCOPE,
  removeFromBlocklist,
} from '../../../domain/contacts/add-to-blocklist.js';
import { numberSearch } from '../../../domain/contacts/number-search.js';
import type { Store } from '../../../domain/store.js';
import { NUMBER_LIST_TYPES, type NumberPageQuery } from '../contract/number-imports.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';
import { acceptNumberLists, numberRowsOf } from '../number-list-body.js';

const IMPORT_DESCRIPTION = `The list is the request body (${NUMBER_LIST_TYPES.join(', ')}): one number a line, or CSV with the numbers in the column its header names (phone, mobile, msisdn, number, เบอร์…; else the first), read as it arrives. The report counts numbers already listed, repeats within the file and rejected lines (the first 100 quoted with their line numbers and why).`;

/**
 * The blocklist. Members and owners read and change their account's own entries under
 * /blocklist and read the platform-wide ones (/blocklist/platform); admins change those under
 * /admin/blocklist. A customer's remove acts on their own entries only, so it can never lift a
 * platform-wide block.
 */
export const blocklistRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { store, clock }) => {
  acceptNumberLists(app);

  const scopes = [
    {
      prefix: '/blocklist',
      config: { access: { role: 'member' } },
      tags: ['blocklist'],
      scope: (request: FastifyRequest) => consoleAccountId(request),
      whose: "the account's own",
    },
    {
      prefix: '/admin/blocklist',
      config: { access: { role: 'admin' } },
      tags: ['admin: blocklist'],
      scope: () => PLATFORM_SCOPE,
      whose: 'the platform-wide',
    },
  ] as const;

  for (const { prefix, config, tags, scope, whose } of scopes) {
    consoleRoute(
      app,
      `GET ${prefix}`,
      {
        tags,
        summary: `Entries of ${whose} blocklist, in number order, searched by digits`,
        config,
      },
      async (request) => pageOf(store, scope(request), request.query),
    );

    consoleRoute(
      app,
      `POST ${prefix}`,
      {
        tags,
        summary: `Add numbers to ${whose} blocklist`,
        description: 'All or nothing: one malformed number refuses the list (INVALID_NUMBER).',
        config,
      },
      async (request) => {
        const { added } = await addToBlocklist(store, {
          scope: scope(request),
          numbers: request.body.numbers,
          nowMs: clock.now(),
          actor: auditActor(request),
        });
        return { added };
      },
    );

    consoleRoute(
      app,
      `DELETE ${prefix}`,
      { tags, summary: `Take numbers off ${whose} blocklist`, config },
      async (request) =>
        removeFromBlocklist(store, {
          scope: scope(request),
          numbers: request.body.numbers,
          nowMs: clock.now(),
          actor: auditActor(request),
        }),
    );

    consoleRoute(
      app,
      `POST ${prefix}/import`,
      {
        tags,
        summary: `Import a number list into ${whose} blocklist`,
        description: IMPORT_DESCRIPTION,
        config,
      },
      async (request) =>
        importToBlocklist(store, {
          scope: scope(request),
          rows: numberRowsOf(request),
          nowMs: clock.now(),
          actor: auditActor(request),
        }),
    );
  }

  consoleRoute(
    app,
    'GET /blocklist/platform',
    {
      tags: ['blocklist'],
      summary: 'Entries of the platform-wide blocklist (read-only), searched by digits',
      config: { access: { role: 'member' } },
    },
    async (request) => pageOf(store, PLATFORM_SCOPE, request.query),
  );
};

async function pageOf(store: Store, scope: number, query: NumberPageQuery) {
  const { offset, limit } = query;
  const page = await store.blocklistPage(scope, {
    search: numberSearch(query.search),
    offset,
    limit,
  });
  return {
    data: page.items.map((entry) => ({
      msisdn: entry.msisdn,
      createdAt: new Date(entry.createdAt).toISOString(),
    })),
    total: page.total,
    offset,
    limit,
  };
}
