import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { Store } from '../../../domain/store.js';
import {
  getSenderDocument,
  getSenderRequest,
  listAccountSenderRequests,
  requireOwnRequest,
  type SenderRequestViewer,
} from '../../../domain/senders/read-sender-requests.js';
import { resubmitSenderRequest } from '../../../domain/senders/resubmit-sender-request.js';
import {
  DOCUMENT_TYPES,
  MAX_DOCUMENTS_PER_SUBMISSION,
  type DocumentType,
} from '../../../domain/senders/sender-request-rules.js';
import { submitSenderRequest } from '../../../domain/senders/submit-sender-request.js';
import { senderEndpoints } from '../contract/senders.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { consoleAccountId, consoleUser } from '../console-session.js';
import { readUpload } from '../read-upload.js';
import {
  attachmentDisposition,
  presentRequestDetail,
  presentRequestSummary,
  presentSender,
} from '../sender-presenters.js';

const member = { access: { role: 'member' } } as const;
const owner = { access: { role: 'owner' } } as const;
const signedIn = { access: { role: 'user' } } as const;
const tags = ['sender names'];
const DOCUMENT_TYPE_LIST = Object.keys(DOCUMENT_TYPES) as DocumentType[];

/** A request as the console shows it, with the names of the people in its history. */
export async function requestDetail(store: Store, viewer: SenderRequestViewer, requestId: number) {
  const view = await getSenderRequest(store, viewer, requestId);
  const names = new Map<number, string | null>();
  for (const event of view.history) {
    if (event.actorUserId !== null && !names.has(event.actorUserId)) {
      names.set(event.actorUserId, (await store.findUser(event.actorUserId))?.name ?? null);
    }
  }
  return presentRequestDetail(view, names);
}

/** The account's sender names and its requests for new ones; documents for their viewers. */
export const senderRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;
  const maxDocumentBytes = deps.senderDocumentMaxBytes;
  await app.register(multipart);

  consoleRoute(
    app,
    'GET /senders',
    {
      tags,
      summary: "The account's sender names, its own and those shared with it",
      config: member,
    },
    async (request) => {
      const senders = await store.listVisibleSenders(consoleAccountId(request));
      return {
        data: senders.map(presentSender),
        documentLimits: {
          maxBytes: maxDocumentBytes,
          maxFilesPerSubmission: MAX_DOCUMENTS_PER_SUBMISSION,
          types: DOCUMENT_TYPE_LIST,
        },
      };
    },
  );

  consoleRoute(
    app,
    'GET /sender-requests',
    {
      tags,
      summary: "The account's requests for sender names, newest first",
      config: member,
    },
    async (request) => {
      const requests = await listAccountSenderRequests(store, consoleAccountId(request));
      return { data: requests.map(presentRequestSummary) };
    },
  );

  consoleRoute(
    app,
    'GET /sender-requests/:requestId',
    {
      tags,
      summary: 'A request with its history, the reviewers’ notes and its documents',
      config: member,
    },
    async (request) =>
      requestDetail(
        store,
        { admin: false, accountId: consoleAccountId(request) },
        request.params.requestId,
      ),
  );

  consoleRoute(
    app,
    'POST /sender-requests',
    {
      tags,
      summary: 'Request a sender name, with documents',
      description:
        'multipart/form-data: `request`, the form as JSON (name, purpose, sampleMessages, registrationNumber), and one or more `documents` files: PDF, PNG or JPEG as their bytes show, each within the size limit (GET /senders says it), named and declared as what they are.',
      config: owner,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      const upload = await readUpload(request, senderEndpoints['POST /sender-requests'].upload, {
        maxFileBytes: maxDocumentBytes,
        maxFiles: MAX_DOCUMENTS_PER_SUBMISSION,
      });
      const { name, ...details } = upload.form;
      const step = await submitSenderRequest(store, {
        accountId,
        actorUserId: consoleUser(request).id,
        ip: request.ip,
        name,
        details,
        documents: upload.documents,
        maxDocumentBytes,
        nowMs: clock.now(),
      });
      return requestDetail(store, { admin: false, accountId }, step.request.id);
    },
  );

  consoleRoute(
    app,
    'POST /sender-requests/:requestId/resubmit',
    {
      tags,
      summary: 'Resubmit a request the reviewer sent back, with any new documents',
      description:
        'multipart/form-data: `request`, the details as JSON (purpose, sampleMessages, registrationNumber), and any new `documents` files.',
      config: owner,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      // Another account's request is refused before its body is read.
      await requireOwnRequest(store, accountId, request.params.requestId);
      const upload = await readUpload(
        request,
        senderEndpoints['POST /sender-requests/:requestId/resubmit'].upload,
        {
          maxFileBytes: maxDocumentBytes,
          maxFiles: MAX_DOCUMENTS_PER_SUBMISSION,
        },
      );
      const step = await resubmitSenderRequest(store, {
        requestId: request.params.requestId,
        accountId,
        actorUserId: consoleUser(request).id,
        ip: request.ip,
        details: upload.form,
        documents: upload.documents,
        maxDocumentBytes,
        nowMs: clock.now(),
      });
      return requestDetail(store, { admin: false, accountId }, step.request.id);
    },
  );

  consoleRoute(
    app,
    'GET /sender-documents/:documentId',
    {
      tags,
      summary: 'A document of a request, as an attachment',
      description:
        "Served to the request's own account and to platform admins only, with the type its bytes showed, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`.",
      config: signedIn,
    },
    async (request, reply) => {
      const user = consoleUser(request);
      const viewer: SenderRequestViewer =
        user.role === 'admin'
          ? { admin: true }
          : { admin: false, accountId: consoleAccountId(request) };
      const document = await getSenderDocument(store, viewer, request.params.documentId);
      return reply
        .header('content-type', document.contentType)
        .header('content-disposition', attachmentDisposition(document.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(document.content) as never);
    },
  );
};
