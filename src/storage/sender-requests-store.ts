import { sql, type SqlBool } from 'kysely';
import type { SenderRequestStore } from '../domain/senders/sender-request-store.js';
import type {
  ManagedSender,
  SenderDocumentInfo,
  SenderRequest,
  SenderRequestEvent,
} from '../domain/senders/sender-request-store.js';
import type {
  DocumentType,
  SenderPurpose,
  SenderRequestStatus,
  SenderRequestStep,
} from '../domain/senders/sender-request-rules.js';
import { containsPattern, toSender } from './rows.js';
import type { Db, SenderDocumentRow, SenderRequestEventRow, SenderRequestRow } from './schema.js';

const OPEN_STATUSES: readonly SenderRequestStatus[] = ['pending', 'changes_requested'];

const DOCUMENT_INFO_COLUMNS = [
  'id',
  'request_id',
  'event_id',
  'file_name',
  'content_type',
  'size_bytes',
  'sha256',
  'created_at',
] as const;

export function senderRequestsStore(db: Db): SenderRequestStore {
  return {
    async insertSenderRequest({ accountId, name, details, nowMs }) {
      // One open request per name: the partial unique index sender_requests_open_name decides,
      // so two owners asking at once cannot both get in.
      const row = await db
        .insertInto('sender_requests')
        .values({
          account_id: accountId,
          name,
          purpose: details.purpose,
          sample_messages: JSON.stringify(details.sampleMessages),
          registration_number: details.registrationNumber,
          status: 'pending',
          sender_id: null,
          created_at: nowMs,
          updated_at: nowMs,
          decided_at: null,
        })
        .onConflict((oc) => oc.column('name').where('decided_at', 'is', null).doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? toSenderRequest(row) : null;
    },

    async findSenderRequest(id) {
      const row = await db
        .selectFrom('sender_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toSenderRequest(row) : null;
    },

    async listSenderRequests({ accountId, statuses, limit }) {
      let query = db.selectFrom('sender_requests').selectAll();
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      const queue = statuses !== undefined && statuses.every((s) => OPEN_STATUSES.includes(s));
      if (statuses !== undefined) query = query.where('status', 'in', [...statuses]);
      query = queue
        ? query.orderBy('updated_at', 'asc').orderBy('id', 'asc')
        : query.orderBy('id', 'desc');
      const rows = await query.limit(limit).execute();
      return rows.map(toSenderRequest);
    },

    async moveSenderRequest({ id, from, to, details, senderId, nowMs }) {
      const final = !OPEN_STATUSES.includes(to);
      const result = await db
        .updateTable('sender_requests')
        .set({
          status: to,
          updated_at: nowMs,
          ...(final ? { decided_at: nowMs } : {}),
          ...(senderId !== undefined ? { sender_id: senderId } : {}),
          ...(details
            ? {
                purpose: details.purpose,
                sample_messages: JSON.stringify(details.sampleMessages),
                registration_number: details.registrationNumber,
              }
            : {}),
        })
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async addSenderRequestEvent({ requestId, step, actorUserId, note, nowMs }) {
      const row = await db
        .insertInto('sender_request_events')
        .values({
          request_id: requestId,
          step,
          actor_user_id: actorUserId,
          note,
          created_at: nowMs,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toEvent(row);
    },

    async senderRequestEvents(requestId) {
      const rows = await db
        .selectFrom('sender_request_events')
        .selectAll()
        .where('request_id', '=', requestId)
        .orderBy('id', 'asc')
        .execute();
      return rows.map(toEvent);
    },

    async addSenderDocument({ requestId, eventId, fileName, contentType, sha256, content, nowMs }) {
      const row = await db
        .insertInto('sender_documents')
        .values({
          request_id: requestId,
          event_id: eventId,
          file_name: fileName,
          content_type: contentType,
          size_bytes: content.byteLength,
          sha256,
          content: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
          created_at: nowMs,
        })
        .returning(DOCUMENT_INFO_COLUMNS)
        .executeTakeFirstOrThrow();
      return toDocumentInfo(row);
    },

    async senderDocuments(requestId) {
      const rows = await db
        .selectFrom('sender_documents')
        .select(DOCUMENT_INFO_COLUMNS)
        .where('request_id', '=', requestId)
        .orderBy('id', 'asc')
        .execute();
      return rows.map(toDocumentInfo);
    },

    async findSenderDocument(id) {
      const row = await db
        .selectFrom('sender_documents')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { ...toDocumentInfo(row), content: new Uint8Array(row.content) } : null;
    },

    async findSender(id) {
      const row = await db
        .selectFrom('senders')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toSender(row) : null;
    },

    async approveSenderName({ accountId, name, nowMs }) {
      const inserted = await db
        .insertInto('senders')
        .values({
          account_id: accountId,
          name,
          status: 'approved',
          note: null,
          created_at: nowMs,
          updated_at: nowMs,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return toSender(inserted);
      const updated = await db
        .updateTable('senders')
        .set({ status: 'approved', updated_at: nowMs })
        .where('name', '=', name)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst();
      return updated ? toSender(updated) : null;
    },

    async setSenderStatus({ senderId, from, to, nowMs }) {
      if (from.length === 0) return false;
      const result = await db
        .updateTable('senders')
        .set({ status: to, updated_at: nowMs })
        .where('id', '=', senderId)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async unshareSender(senderId, accountId) {
      const result = await db
        .deleteFrom('sender_shares')
        .where('sender_id', '=', senderId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async senderShares(senderId) {
      const rows = await db
        .selectFrom('sender_shares')
        .select('account_id')
        .where('sender_id', '=', senderId)
        .orderBy('account_id')
        .execute();
      return rows.map((row) => row.account_id);
    },

    async listAllSenders({ search, status, offset, limit }) {
      let query = db
        .selectFrom('senders')
        .innerJoin('accounts', 'accounts.id', 'senders.account_id');
      if (search) {
        const pattern = containsPattern(search);
        query = query.where(sql<SqlBool>`lower(senders.name) like ${pattern} ESCAPE '\\'`);
      }
      if (status) query = query.where('senders.status', '=', status);
      const [rows, count] = await Promise.all([
        query
          .selectAll('senders')
          .select('accounts.name as account_name')
          .orderBy('senders.id')
          .offset(offset)
          .limit(limit)
          .execute(),
        query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      ]);
      const shares =
        rows.length === 0
          ? []
          : await db
              .selectFrom('sender_shares')
              .innerJoin('accounts', 'accounts.id', 'sender_shares.account_id')
              .select(['sender_shares.sender_id', 'accounts.id', 'accounts.name'])
              .where(
                'sender_shares.sender_id',
                'in',
                rows.map((row) => row.id),
              )
              .orderBy('accounts.name')
              .execute();
      const items = rows.map((row): ManagedSender => ({
        ...toSender(row),
        accountName: row.account_name,
        sharedWith: shares
          .filter((share) => share.sender_id === row.id)
          .map((share) => ({ id: share.id, name: share.name })),
      }));
      return { items, total: Number(count.n) };
    },
  };
}

function toSenderRequest(row: SenderRequestRow): SenderRequest {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    purpose: row.purpose as SenderPurpose,
    sampleMessages: JSON.parse(row.sample_messages) as string[],
    registrationNumber: row.registration_number,
    status: row.status as SenderRequestStatus,
    senderId: row.sender_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    decidedAt: row.decided_at,
  };
}

function toEvent(row: SenderRequestEventRow): SenderRequestEvent {
  return {
    id: row.id,
    requestId: row.request_id,
    step: row.step as SenderRequestStep,
    actorUserId: row.actor_user_id,
    note: row.note,
    createdAt: row.created_at,
  };
}

function toDocumentInfo(
  row: Pick<SenderDocumentRow, (typeof DOCUMENT_INFO_COLUMNS)[number]>,
): SenderDocumentInfo {
  return {
    id: row.id,
    requestId: row.request_id,
    eventId: row.event_id,
    fileName: row.file_name,
    contentType: row.content_type as DocumentType,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}
