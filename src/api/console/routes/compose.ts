import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Readable } from 'node:stream';
import { DomainError, invalidParameter } from '../../../domain/errors.js';
import { preparePreview } from '../../../domain/messages/prepare-send.js';
import { sendMessage, toEstimate } from '../../../domain/messages/send-message.js';
import { NumberCollector } from '../../../domain/recipients/number-collector.js';
import type { NumberList } from '../../../domain/recipients/number-list.js';
import { RecipientLists } from '../../../domain/recipients/recipient-lists.js';
import { presentAccepted, presentEstimate } from '../../presenters.js';
import { errorBodySchema, errorResponses } from '../contract/common.js';
import { MAX_UPLOADED_NUMBERS } from '../contract/compose.js';
import { NUMBER_LIST_MAX_BYTES } from '../contract/number-imports.js';
import { toPreviewRequest, toSendRequest } from '../../contract/sms.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';
import { readNumberStream, type NumberFileFormat } from '../read-number-stream.js';

const member = { access: { role: 'member' } } as const;
const tags = ['send'];
/** Bytes per line of a plain list ("0812345678\r\n"), to size the set before reading. */
const BYTES_PER_LINE = 12;
const UPLOAD_TYPES: Record<string, NumberFileFormat> = {
  'text/plain': 'lines',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/vnd.ms-excel': 'csv',
  'application/octet-stream': 'lines',
};
const sendErrors = {
  ...errorResponses,
  402: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
} as const;

/**
 * Compose and send: numbers uploaded as a stream into a list stored for the account, the
 * preview as the page is typed, and the dry run and send, through the same use cases as
 * /api/v2's send and preview-cost (see ADRs 0028 and 0034).
 */
export const composeRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;
  const lists = new RecipientLists(store);

  // The upload has a parser of its own that hands the route the body's stream, unread.
  await (app as unknown as FastifyInstance).register(async (upload) => {
    upload.removeContentTypeParser(['text/plain']);
    upload.addContentTypeParser(Object.keys(UPLOAD_TYPES), (_request, payload, done) =>
      done(null, payload),
    );
    consoleRoute(
      upload,
      'POST /recipient-lists',
      {
        tags,
        summary:
          'Upload numbers (the body is the file: text/plain, a number a line, or text/csv); kept for an hour or until sent',
        config: member,
        responses: sendErrors,
      },
      async (request) => {
        const accountId = consoleAccountId(request);
        const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
        const format = UPLOAD_TYPES[mediaType.toLowerCase()];
        if (!format || !isStream(request.body)) {
          throw new DomainError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the file itself as the body, as text/plain (a number a line) or text/csv',
          );
        }
        const length = Number(request.headers['content-length'] ?? 0);
        const numbers = await readNumberStream(
          request.body,
          format,
          { maxNumbers: MAX_UPLOADED_NUMBERS, maxBytes: NUMBER_LIST_MAX_BYTES },
          Number.isFinite(length) ? Math.ceil(length / BYTES_PER_LINE) : 0,
        );
        if (numbers.requested === 0) throw invalidParameter('The file lists no numbers');
        const summary = await lists.keep(accountId, numbers, clock.now());
        return { ...summary, expiresAt: new Date(summary.expiresAt).toISOString() };
      },
    );
  });

  /** The request's numbers: typed ones, or an uploaded list (a contact group goes as a field). */
  async function numbersOf(
    accountId: number,
    body: { readonly msisdns?: readonly string[]; readonly recipientListId?: string },
  ): Promise<NumberList | undefined> {
    if (body.recipientListId !== undefined && body.msisdns !== undefined) {
      throw invalidParameter('Give typed numbers or an uploaded list, not both');
    }
    if (body.recipientListId !== undefined)
      return lists.read(accountId, body.recipientListId, clock.now());
    if (body.msisdns === undefined) return undefined;
    const collector = new NumberCollector(body.msisdns.length);
    for (const text of body.msisdns) collector.addText(text.trim());
    return collector.finish();
  }

  consoleRoute(
    app,
    'POST /messages/preview-cost',
    {
      tags,
      summary: 'Parts, recipients and cost of a message as it is typed; nothing is charged',
      responses: sendErrors,
      config: member,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      const { recipientListId: _list, ...body } = request.body;
      const prepared = await preparePreview(
        store,
        accountId,
        toPreviewRequest({ ...body, msisdns: await numbersOf(accountId, request.body) }),
      );
      return presentEstimate(toEstimate(prepared));
    },
  );

  consoleRoute(
    app,
    'POST /messages',
    {
      tags,
      summary: 'Send a message (with dryRun: its estimate, nothing stored or charged)',
      responses: sendErrors,
      config: member,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      const { recipientListId, ...body } = request.body;
      const msisdns = await numbersOf(accountId, request.body);
      const outcome = await sendMessage(
        store,
        {
          accountId,
          apiKeyId: null,
          request: () => toSendRequest({ ...body, msisdns }),
          actor: auditActor(request),
          recipientListId,
        },
        clock.now(),
      );
      if (outcome.kind === 'dry-run') {
        return { ...presentEstimate(outcome.estimate), dryRun: true as const };
      }
      deps.onAccepted?.(outcome.result.recipients.charged);
      // The send took the list from the store; this process's copy goes too.
      if (recipientListId !== undefined) lists.forget(recipientListId);
      return {
        ...presentAccepted(outcome.result),
        scheduledTime:
          outcome.result.scheduledAt === null
            ? null
            : new Date(outcome.result.scheduledAt).toISOString(),
        dryRun: false as const,
      };
    },
  );
};

function isStream(body: unknown): body is Readable {
  return typeof (body as Readable | undefined)?.pipe === 'function';
}
