import type { FastifyPluginAsync } from 'fastify';
import { sendRecipientExport } from '../../recipient-export.js';
import { messageAccountId } from '../../../domain/messages/message-account.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { consoleMessagePage, messageDetail, recipientPage } from '../message-views.js';
import { notModified } from './messages.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['admin'];

/**
 * Platform admins read any account's messages, read-only (no cancel): the customer's routes'
 * views, for the account the message belongs to.
 */
export const adminMessageRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, compactLists } = deps;

  consoleRoute(
    app,
    'GET /admin/messages',
    {
      tags,
      summary: "Every account's messages (or one account's), newest first, with the list filters",
      config: admin,
    },
    async (request) => consoleMessagePage(store, request.query.accountId ?? null, request.query),
  );

  consoleRoute(
    app,
    'GET /admin/messages/:uuid',
    {
      tags,
      summary: 'Any account’s message with its live per-status counts (ETag, 304)',
      responses: { 304: notModified },
      config: admin,
    },
    async (request, reply) => {
      const { uuid } = request.params;
      return messageDetail(store, await messageAccountId(store, uuid), uuid, request, reply);
    },
  );

  consoleRoute(
    app,
    'GET /admin/messages/:uuid/recipients',
    {
      tags,
      summary: 'A page of any account’s message’s recipients by cursor',
      config: admin,
    },
    async (request) => {
      const { uuid } = request.params;
      const accountId = await messageAccountId(store, uuid);
      return recipientPage(store, compactLists, accountId, uuid, request.query);
    },
  );

  consoleRoute(
    app,
    'GET /admin/messages/:uuid/recipients.csv',
    {
      tags,
      summary: 'Every recipient of any account’s message (or of one status) as CSV, streamed',
      config: admin,
    },
    async (request, reply) => {
      const { uuid } = request.params;
      const accountId = await messageAccountId(store, uuid);
      return sendRecipientExport(
        store,
        compactLists,
        accountId,
        uuid,
        { status: request.query.status, format: 'csv' },
        reply,
      );
    },
  );
};
