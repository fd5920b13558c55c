import type { FastifyPluginAsync } from 'fastify';
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
import { senderDecisionMail } from '../../../domain/mail/mail-texts.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { consoleUser } from '../console-session.js';
import { presentRequestSummary } from '../sender-presenters.js';
import { requestDetail } from './senders.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['sender review'];

/** The platform's review of sender-name requests, and its senders' suspension and shares. */
export const adminSenderRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  consoleRoute(
    app,
    'GET /admin/sender-requests',
    {
      tags,
      summary: 'The review queue (longest waiting first), or every request',
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

  consoleRoute(
    app,
    'GET /admin/sender-requests/:requestId',
    {
      tags,
      summary: 'A request of any account, with its history and documents',
      config: admin,
    },
    async (request) => requestDetail(store, { admin: true }, request.params.requestId),
  );

  consoleRoute(
    app,
    'POST /admin/sender-requests/:requestId/review',
    {
      tags,
      summary: 'Approve, reject or ask for changes (with a note the owner reads)',
      description:
        'Approval makes the name an approved sender of the account at once. The owners of the account are told by email.',
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
      // Committed: tell the account's owners (a mail failure is logged and undoes nothing).
      const owners = await store.listUsers({ accountId: step.request.accountId, role: 'owner' });
      for (const owner of owners.filter((o) => o.status === 'active')) {
        deps.people.outbox.post(
          senderDecisionMail({
            to: owner.email,
            senderName: step.request.name,
            decision: request.body.decision,
            note: request.body.note?.trim() || null,
            link: deps.people.links.senderRequest(step.request.id),
          }),
        );
      }
      return requestDetail(store, { admin: true }, step.request.id);
    },
  );

  consoleRoute(
    app,
    'GET /admin/senders',
    {
      tags,
      summary: 'Every sender of every account, oldest first, with its account and shares',
      description:
        'Senders approved from a request, made by the operator (`nok admin sender create`) or made by the demo alike, so each can be suspended, reinstated and shared from here. `search` finds a part of the name in any case.',
      config: admin,
    },
    async (request) => {
      const { search, status, offset, limit } = request.query;
      const page = await store.listAllSenders({
        search: search || undefined,
        status,
        offset,
        limit,
      });
      return {
        data: page.items.map((sender) => ({
          id: sender.id,
          name: sender.name,
          status: sender.status,
          account: { id: sender.accountId, name: sender.accountName },
          sharedWith: sender.sharedWith.map((account) => ({ ...account })),
          createdAt: new Date(sender.createdAt).toISOString(),
        })),
        total: page.total,
        offset,
        limit,
      };
    },
  );

  for (const action of ['suspend', 'reinstate'] as const) {
    consoleRoute(
      app,
      `POST /admin/senders/:senderId/${action}`,
      {
        tags,
        summary:
          action === 'suspend'
            ? 'Suspend an approved sender: /api/v2 refuses to send from it'
            : 'Reinstate a suspended sender',
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

  consoleRoute(
    app,
    'POST /admin/senders/:senderId/shares',
    {
      tags,
      summary: 'Share an approved sender with another account',
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

  consoleRoute(
    app,
    'DELETE /admin/senders/:senderId/shares/:accountId',
    {
      tags,
      summary: 'Stop sharing a sender with an account',
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
