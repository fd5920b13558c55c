import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createAccount } from '../../../domain/accounts/create-account.js';
import { requireAccount } from '../../../domain/accounts/require-account.js';
import { setAccountStatus } from '../../../domain/accounts/set-account-status.js';
import { updateAccountSettings } from '../../../domain/accounts/update-account-settings.js';
import { adjustCredits } from '../../../domain/credits/adjust-credits.js';
import type { Account, Store } from '../../../domain/ports.js';
import {
  accountDetailSchema,
  accountListQuerySchema,
  accountListSchema,
  accountParamsSchema,
  accountSchema,
  accountSettingsBodySchema,
  accountStatusBodySchema,
  createAccountBodySchema,
  type Account as AccountBody,
  type AccountDetail,
} from '../contract/accounts.js';
import { errorBodySchema, errorResponses } from '../contract/common.js';
import {
  adjustCreditsBodySchema,
  balanceSchema,
  creditsSchema,
  ledgerQuerySchema,
} from '../contract/credits.js';
import type { ConsoleDeps } from '../console-api.js';
import { auditActor } from '../console-session.js';
import { creditsOf } from './credits.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['admin'];

/** Platform admins manage every customer account: list, create, credits, settings, status. */
export const adminAccountRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  app.get(
    '/admin/accounts',
    {
      schema: {
        tags,
        summary: 'Customer accounts by id, found by a part of the name',
        querystring: accountListQuerySchema,
        response: { 200: accountListSchema, ...errorResponses },
      },
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

  app.post(
    '/admin/accounts',
    {
      schema: {
        tags,
        summary: 'Create a customer account',
        description: 'Opening credits are written to its ledger as a top-up.',
        body: createAccountBodySchema,
        response: { 201: accountDetailSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request, reply) => {
      const account = await createAccount(store, {
        name: request.body.name,
        credits: request.body.credits,
        pricePerPart: request.body.pricePerPart,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      reply.status(201);
      return detailOf(store, account.id);
    },
  );

  app.get(
    '/admin/accounts/:accountId',
    {
      schema: {
        tags,
        summary: 'One account: balance, price, rate limit, status, sender names',
        params: accountParamsSchema,
        response: { 200: accountDetailSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => detailOf(store, request.params.accountId),
  );

  app.patch(
    '/admin/accounts/:accountId',
    {
      schema: {
        tags,
        summary: "Set an account's price per part and/or rate limit (null: the default)",
        params: accountParamsSchema,
        body: accountSettingsBodySchema,
        response: { 200: accountSchema, ...errorResponses },
      },
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

  app.post(
    '/admin/accounts/:accountId/credits',
    {
      schema: {
        tags,
        summary: 'Grant or deduct credits with a note',
        description:
          'The balance and its ledger row change together. A deduction the balance does not cover changes nothing and answers 402 INSUFFICIENT_CREDITS.',
        params: accountParamsSchema,
        body: adjustCreditsBodySchema,
        response: { 200: balanceSchema, 402: errorBodySchema, ...errorResponses },
      },
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

  app.put(
    '/admin/accounts/:accountId/status',
    {
      schema: {
        tags,
        summary: 'Suspend or reactivate an account',
        description:
          'Suspended, its API keys answer 403 ACCOUNT_SUSPENDED and its console users cannot act; nothing is deleted, so reactivating restores everything.',
        params: accountParamsSchema,
        body: accountStatusBodySchema,
        response: { 200: accountSchema, ...errorResponses },
      },
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

  app.get(
    '/admin/accounts/:accountId/ledger',
    {
      schema: {
        tags,
        summary: "An account's balance and ledger, newest first, by cursor",
        params: accountParamsSchema,
        querystring: ledgerQuerySchema,
        response: { 200: creditsSchema, ...errorResponses },
      },
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
    createdAt: new Date(account.createdAt).toISOString(),
  };
}
