import type { FastifyPluginAsync } from 'fastify';
import { createAccount } from '../../../domain/accounts/create-account.js';
import { requireAccount } from '../../../domain/accounts/require-account.js';
import { setAccountStatus } from '../../../domain/accounts/set-account-status.js';
import { updateAccountSettings } from '../../../domain/accounts/update-account-settings.js';
import { adjustCredits } from '../../../domain/credits/adjust-credits.js';
import type { Account } from '../../../domain/accounts/account-store.js';
import type { Store } from '../../../domain/store.js';
import { type Account as AccountBody, type AccountDetail } from '../contract/accounts.js';
import { errorBodySchema } from '../contract/common.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor } from '../console-session.js';
import { creditsOf } from './credits.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['admin'];

/** Platform admins manage every customer account: list, create, credits, settings, status. */
export const adminAccountRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  consoleRoute(
    app,
    'GET /admin/accounts',
    {
      tags,
      summary: 'Customer accounts by id, found by a part of the name',
      config: admin,
    },
    async (request) => {
      const { search, page, pageSize } = request.query;
      const found = await store.listAccounts({
        search: search || undefined,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { data: found.items.map(presentAccount), total: found.total, page, pageSize };
    },
  );

  consoleRoute(
    app,
    'POST /admin/accounts',
    {
      tags,
      summary: 'Create a customer account',
      description: 'Opening credits are written to its ledger as a top-up.',
      config: admin,
    },
    async (request) => {
      const account = await createAccount(store, {
        name: request.body.name,
        credits: request.body.credits,
        pricePerPart: request.body.pricePerPart,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return detailOf(store, account.id);
    },
  );

  consoleRoute(
    app,
    'GET /admin/accounts/:accountId',
    {
      tags,
      summary: 'One account: balance, price, rate limit, status, sender names',
      config: admin,
    },
    async (request) => detailOf(store, request.params.accountId),
  );

  consoleRoute(
    app,
    'PATCH /admin/accounts/:accountId',
    {
      tags,
      summary:
        "Set an account's price per part, rate limit (null: the default) and/or low-balance threshold (0: no warning)",
      config: admin,
    },
    async (request) => {
      const { after } = await updateAccountSettings(store, {
        accountId: request.params.accountId,
        settings: request.body,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return presentAccount(after);
    },
  );

  consoleRoute(
    app,
    'POST /admin/accounts/:accountId/credits',
    {
      tags,
      summary: 'Grant or deduct credits with a note',
      description:
        'The balance and its ledger row change together. A deduction the balance does not cover changes nothing and answers 402 INSUFFICIENT_CREDITS.',
      responses: { 402: errorBodySchema },
      config: admin,
    },
    async (request) => {
      const { kind, amount, note } = request.body;
      const { balance } = await adjustCredits(store, {
        accountId: request.params.accountId,
        amount: kind === 'grant' ? amount : -amount,
        note,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { balance };
    },
  );

  consoleRoute(
    app,
    'PUT /admin/accounts/:accountId/status',
    {
      tags,
      summary: 'Suspend or reactivate an account',
      description:
        'Suspended, its API keys answer 403 ACCOUNT_SUSPENDED and its console users cannot act; nothing is deleted, so reactivating restores everything.',
      config: admin,
    },
    async (request) => {
      const { account } = await setAccountStatus(store, {
        accountId: request.params.accountId,
        status: request.body.status,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return presentAccount(account);
    },
  );

  consoleRoute(
    app,
    'GET /admin/accounts/:accountId/ledger',
    {
      tags,
      summary: "An account's balance and ledger, newest first, by cursor",
      config: admin,
    },
    async (request) => creditsOf(store, request.params.accountId, request.query),
  );
};

async function detailOf(store: Store, accountId: number): Promise<AccountDetail> {
  const account = await requireAccount(store, accountId);
  const senders = await store.listVisibleSenders(accountId);
  return {
    ...presentAccount(account),
    senders: senders.map((s) => ({ name: s.name, status: s.status, shared: s.shared })),
  };
}

function presentAccount(account: Account): AccountBody {
  return {
    id: account.id,
    name: account.name,
    balance: account.balance,
    pricePerPart: account.pricePerPart,
    rateLimitRequests: account.rateLimitRequests,
    status: account.status,
    lowBalanceThreshold: account.lowBalanceThreshold,
    createdAt: new Date(account.createdAt).toISOString(),
  };
}
