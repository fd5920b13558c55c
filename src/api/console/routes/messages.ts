import type { FastifyPluginAsync } from 'fastify';
import { sendRecipientExport } from '../../recipient-export.js';
import { z } from 'zod';
import { cancelMessage } from '../../../domain/messages/cancel-message.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';
import { consoleMessagePage, messageDetail, recipientPage } from '../message-views.js';

const member = { access: { role: 'member' } } as const;
const tags = ['messages'];

/** Answered with no body when the message has not changed since the page's copy (ETag). */
export const notModified = z.undefined().describe('Not modified since the ETag of If-None-Match');

export const csvBody = z.string().describe('text/csv: seq,msisdn,status,updatedAt, one per line');

/**
 * The account's messages, for members and owners alike: the list, one message with its live
 * counts, its recipients, the CSV export, and cancel. The same use cases as /api/v2.
 */
export const messageRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock, compactLists } = deps;

  consoleRoute(
    app,
    'GET /messages',
    {
      tags,
      summary: "The account's messages, newest first, with the filters of GET /api/v2/sms",
      config: member,
    },
    async (request) => consoleMessagePage(store, consoleAccountId(request), request.query),
  );

  consoleRoute(
    app,
    'GET /messages/:uuid',
    {
      tags,
      summary: 'One message with its live per-status counts',
      description:
        'Carries an ETag; asked again with If-None-Match while nothing changed, it answers 304 with no body. `final` says nothing will change any more.',
      responses: { 304: notModified },
      config: member,
    },
    async (request, reply) =>
      messageDetail(store, consoleAccountId(request), request.params.uuid, request, reply),
  );

  consoleRoute(
    app,
    'GET /messages/:uuid/recipients',
    {
      tags,
      summary: 'A page of the message’s recipients by cursor, by status and number',
      config: member,
    },
    async (request) =>
      recipientPage(
        store,
        compactLists,
        consoleAccountId(request),
        request.params.uuid,
        request.query,
      ),
  );

  consoleRoute(
    app,
    'GET /messages/:uuid/recipients.csv',
    {
      tags,
      summary: 'Every recipient of the message (or of one status) as CSV, streamed',
      config: member,
    },
    async (request, reply) =>
      sendRecipientExport(
        store,
        compactLists,
        consoleAccountId(request),
        request.params.uuid,
        { status: request.query.status, format: 'csv' },
        reply,
      ),
  );

  consoleRoute(
    app,
    'POST /messages/:uuid/cancel',
    {
      tags,
      summary: 'Cancel a scheduled message that has not started; its credits are refunded',
      description:
        'The cancel of POST /api/v2/sms/{uuid}/cancel: NOT_SCHEDULED answers 400, ALREADY_CANCELLED and ALREADY_PROCESSING 409.',
      config: member,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      const message = await cancelMessage(
        store,
        accountId,
        request.params.uuid,
        clock.now(),
        auditActor(request),
      );
      const account = await store.findAccount(accountId);
      return {
        uuid: message.uuid,
        status: 'cancelled' as const,
        refunded: message.cost,
        balance: account?.balance ?? 0,
      };
    },
  );
};
