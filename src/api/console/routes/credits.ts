import type { FastifyPluginAsync } from 'fastify';
import { requireAccount } from '../../../domain/accounts/require-account.js';
import { listLedger } from '../../../domain/credits/list-ledger.js';
import type { Store } from '../../../domain/store.js';
import { type Credits } from '../contract/credits.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { consoleAccountId } from '../console-session.js';

const owner = { access: { role: 'owner' } } as const;

/** The owner's balance and ledger. */
export const creditRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { store }) => {
  consoleRoute(
    app,
    'GET /credits',
    {
      tags: ['credits'],
      summary: 'The balance, the price per part and a page of the ledger, newest first',
      description:
        'Paged by cursor: pass the `nextCursor` of a page as `cursor` for the older one. Rows written meanwhile never shift a page.',
      config: owner,
    },
    async (request) => creditsOf(store, consoleAccountId(request), request.query),
  );
};

/** An account's balance with one page of its ledger (the owner's page and the admin's view). */
export async function creditsOf(
  store: Store,
  accountId: number,
  query: { cursor?: string; limit: number },
): Promise<Credits> {
  const [account, page] = await Promise.all([
    requireAccount(store, accountId),
    listLedger(store, { accountId, cursor: query.cursor, limit: query.limit }),
  ]);
  return {
    balance: account.balance,
    pricePerPart: account.pricePerPart,
    data: page.items.map((entry) => ({
      id: entry.id,
      delta: entry.delta,
      reason: entry.reason,
      messageUuid: entry.messageUuid,
      balanceAfter: entry.balanceAfter,
      note: entry.note,
      createdAt: new Date(entry.createdAt).toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
