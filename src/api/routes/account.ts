import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getBalance } from '../../domain/credits/get-balance.js';
import type { Store } from '../../domain/store.js';
import { balanceSchema, errorResponses, sendersSchema } from '../contract/sms.js';

export async function accountRoutes(api: FastifyInstance, deps: { store: Store }): Promise<void> {
  const app = api.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sms/credit/balance',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'The account credit balance',
        tags: ['account'],
        response: {
          200: balanceSchema,
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request) => {
      const account = await getBalance(deps.store, request.caller.accountId);
      return { balance: account.balance, creditsPerPart: account.pricePerPart };
    },
  );

  app.get(
    '/senders',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'Sender names of the account, including those shared with it',
        description:
          'Only senders with status approved can send. New names are requested in the web console.',
        tags: ['account'],
        response: {
          200: sendersSchema,
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request) => {
      const senders = await deps.store.listVisibleSenders(request.caller.accountId);
      return {
        data: senders.map((s) => ({
          name: s.name,
          status: s.status,
          shared: s.shared,
          createdAt: new Date(s.createdAt).toISOString(),
        })),
      };
    },
  );
}
