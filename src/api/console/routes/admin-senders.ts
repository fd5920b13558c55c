import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  reinstateSender,
  shareSender,
  suspendSender,
  unshareSender,
} from '../../../domain/senders/manage-sender.js';
import {
  listAllSenderRequests,
  listReviewQueue,
} from '../../../domain/senders/read-sender-requests.js';
import { reviewSenderRequest } from '../../../domain/senders/review-sender-request.js';
import { errorResponses } from '../contract/common.js';
import {
  adminSenderSchema,
  requestIdParamsSchema,
  reviewBodySchema,
  reviewQueueQuerySchema,
  senderIdParamsSchema,
  senderRequestDetailSchema,
  senderRequestListSchema,
  shareBodySchema,
  shareParamsSchema,
} from '../contract/senders.js';
import type { ConsoleDeps } from '../console-api.js';
import { consoleUser } from '../console-session.js';
import { presentRequestSummary } from '../sender-presenters.js';
import { requestDetail } from './senders.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['sender review'];

/** The platform's review of sender-name requests, and its senders' suspension and shares. */
export const adminSenderRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  app.get(
    '/admin/sender-requests',
    {
      schema: {
        tags,
        summary: 'The review queue (longest waiting first), or every request',
        querystring: reviewQueueQuerySchema,
        response: { 200: senderRequestListSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => {
      const requests =
        request.query.status === 'all'
          ? await listAllSenderRequests(store)
          : await listReviewQueue(store);
      return { data: requests.map(presentRequestSummary) };
    },
  );

  app.get(
    '/admin/sender-requests/:requestId',
    {
      schema: {
        tags,
        summary: 'A request of any account, with its history and documents',
        params: requestIdParamsSchema,
        response: { 200: senderRequestDetailSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => requestDetail(store, { admin: true }, request.params.requestId),
  );

  app.post(
    '/admin/sender-requests/:requestId/review',
    {
      schema: {
        tags,
        summary: 'Approve, reject or ask for changes (with a note the owner reads)',
        description:
          'Approval makes the name an approved sender of the account at once. The owners of the account are told by email.',
        params: requestIdParamsSchema,
        body: reviewBodySchema,
        response: { 200: senderRequestDetailSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => {
      const step = await reviewSenderRequest(store, {
        requestId: request.params.requestId,
        actorUserId: consoleUser(request).id,
        ip: request.ip,
        decision: request.body.decision,
        note: request.body.note ?? null,
        nowMs: clock.now(),
      });
      return requestDetail(store, { admin: true }, step.request.id);
    },
  );

  for (const action of ['suspend', 'reinstate'] as const) {
    app.post(
      `/admin/senders/:senderId/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'suspend'
              ? 'Suspend an approved sender: /api/v2 refuses to send from it'
              : 'Reinstate a suspended sender',
          params: senderIdParamsSchema,
          response: { 200: adminSenderSchema, ...errorResponses },
        },
        config: admin,
      },
      async (request) => {
        const input = {
          senderId: request.params.senderId,
          actorUserId: consoleUser(request).id,
          ip: request.ip,
          nowMs: clock.now(),
        };
        const sender =
          action === 'suspend'
            ? await suspendSender(store, input)
            : await reinstateSender(store, input);
        return { ...sender, sharedWith: await store.senderShares(sender.id) };
      },
    );
  }

  app.post(
    '/admin/senders/:senderId/shares',
    {
      schema: {
        tags,
        summary: 'Share an approved sender with another account',
        params: senderIdParamsSchema,
        body: shareBodySchema,
        response: { 200: adminSenderSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => {
      const sender = await shareSender(store, {
        senderId: request.params.senderId,
        accountId: request.body.accountId,
        actorUserId: consoleUser(request).id,
        ip: request.ip,
        nowMs: clock.now(),
      });
      return { ...sender, sharedWith: await store.senderShares(sender.id) };
    },
  );

  app.delete(
    '/admin/senders/:senderId/shares/:accountId',
    {
      schema: {
        tags,
        summary: 'Stop sharing a sender with an account',
        params: shareParamsSchema,
        response: { 200: adminSenderSchema, ...errorResponses },
      },
      config: admin,
    },
    async (request) => {
      const sender = await unshareSender(store, {
        senderId: request.params.senderId,
        accountId: request.params.accountId,
        actorUserId: consoleUser(request).id,
        ip: request.ip,
        nowMs: clock.now(),
      });
      return { ...sender, sharedWith: await store.senderShares(sender.id) };
    },
  );
};
