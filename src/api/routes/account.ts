import type { FastifyInstance } from 'fastify';
import { getBalance } from '../../domain/credits/get-balance.js';
import type { Store } from '../../domain/store.js';
import { SENDER_STATUSES } from '../../domain/statuses.js';
import { errorResponses } from '../schemas.js';

export async function accountRoutes(app: FastifyInstance, deps: { store: Store }): Promise<void> {
  app.get(
    '/sms/credit/balance',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'The account credit balance',
        tags: ['account'],
        response: {
          200: {
            type: 'object',
            required: ['balance', 'creditsPerPart'],
            properties: {
              balance: { type: 'integer', description: 'Credits available.' },
              creditsPerPart: {
                type: 'integer',
                description: 'Credits one message part costs one recipient.',
              },
            },
          },
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
          200: {
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'status', 'shared', 'createdAt'],
                  properties: {
                    name: { type: 'string' },
                    status: { type: 'string', enum: [...SENDER_STATUSES] },
                    shared: {
                      type: 'boolean',
                      description: 'True when another account owns it and shares it.',
                    },
                    createdAt: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
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
