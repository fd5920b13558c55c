import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { DomainError, type ErrorCode } from '../../src/domain/errors.js';
import type { Store } from '../../src/domain/store.js';
import {
  reinstateSender,
  shareSender,
  suspendSender,
  unshareSender,
} from '../../src/domain/senders/manage-sender.js';
import {
  getSenderDocument,
  getSenderRequest,
  listAccountSenderRequests,
  listReviewQueue,
} from '../../src/domain/senders/read-sender-requests.js';
import { resubmitSenderRequest } from '../../src/domain/senders/resubmit-sender-request.js';
import { reviewSenderRequest } from '../../src/domain/senders/review-sender-request.js';
import {
  submitSenderRequest,
  type SubmitSenderRequestInput,
} from '../../src/domain/senders/submit-sender-request.js';
import { createStore } from '../../src/storage/store.js';
import { executableBytes, jpegBytes, pdfBytes, pngBytes } from '../support/documents.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

const NOW_MS = Date.parse('2026-11-23T09:00:00Z');
const MAX_BYTES = 64 * 1024;
const OWNER = 11;
const ADMIN = 1;

const details = {
  purpose: 'otp',
  sampleMessages: ['Your code is 123456'],
  registrationNumber: '0105551234567',
} as const;

async function refused(promise: Promise<unknown>, code: ErrorCode): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.code, code, error.message);
    return error.message;
  }
  assert.fail(`expected ${code}`);
}

for (const engine of testEngines()) {
  describe(`sender-name requests (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;
    let accountId: number;
    let otherAccountId: number;
    let names = 0;

    before(async () => {
      db = await engine.create();
      store = createStore(db.database.db);
      accountId = (
        await createAccount(store, {
          name: 'Shop',
          credits: 0,
          nowMs: NOW_MS,
          actor: SYSTEM_ACTOR,
        })
      ).id;
      otherAccountId = (
        await createAccount(store, { name: 'Other', nowMs: NOW_MS, actor: SYSTEM_ACTOR })
      ).id;
    });
    after(() => db.drop());

    const freshName = () => `REQ${++names}`;
    const submit = (overrides: Partial<SubmitSenderRequestInput> = {}) =>
      submitSenderRequest(store, {
        accountId,
        actorUserId: OWNER,
        ip: null,
        name: freshName(),
        details,
        documents: [
          { fileName: 'certificate.pdf', declaredType: 'application/pdf', content: pdfBytes() },
          { fileName: 'id-card.PNG', declaredType: 'image/png', content: pngBytes() },
        ],
        maxDocumentBytes: MAX_BYTES,
        nowMs: NOW_MS,
        ...overrides,
      });

    async function tableCounts() {
      const count = async (
        table: 'sender_requests' | 'sender_request_events' | 'sender_documents',
      ) =>
        Number(
          (
            await db.database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        requests: await count('sender_requests'),
        events: await count('sender_request_events'),
        documents: await count('sender_documents'),
      };
    }

    it('stores a request pending review with its first step and its documents, typed by their bytes', async () => {
      const { request, event } = await submit({ name: 'MYSHOP' });
      assert.equal(request.status, 'pending');
      assert.equal(request.name, 'MYSHOP');
      assert.deepEqual(request.sampleMessages, ['Your code is 123456']);
      assert.equal(event.step, 'submitted');
      assert.equal(event.actorUserId, OWNER);

      const view = await getSenderRequest(store, { admin: false, accountId }, request.id);
      assert.deepEqual(
        view.documents.map((d) => [d.fileName, d.contentType, d.sizeBytes, d.eventId]),
        [
          ['certificate.pdf', 'application/pdf', pdfBytes().length, event.id],
          ['id-card.PNG', 'image/png', pngBytes().length, event.id],
        ],
      );
      const stored = await getSenderDocument(store, { admin: true }, view.documents[1]!.id);
      assert.deepEqual(Buffer.from(stored.content), pngBytes());
      assert.equal(view.sender, null);
    });

    it('refuses a renamed executable, an oversize file and a mismatched type, storing nothing', async () => {
      const before = await tableCounts();
      const exe = await refused(
        submit({
          documents: [
            { fileName: 'scan.pdf', declaredType: 'application/pdf', content: executableBytes() },
          ],
        }),
        'DOCUMENT_TYPE_NOT_ALLOWED',
      );
      assert.match(exe, /application\/x-msdownload.*PDF, PNG or JPEG/);
      await refused(
        submit({
          documents: [
            { fileName: 'ok.pdf', content: pdfBytes() },
            { fileName: 'big.pdf', content: Buffer.concat([pdfBytes(), Buffer.alloc(MAX_BYTES)]) },
          ],
        }),
        'DOCUMENT_TOO_LARGE',
      );
      await refused(
        submit({ documents: [{ fileName: 'photo.pdf', content: pngBytes() }] }),
        'DOCUMENT_TYPE_MISMATCH',
      );
      await refused(
        submit({
          documents: [
            { fileName: 'photo.jpg', declaredType: 'application/pdf', content: jpegBytes() },
          ],
        }),
        'DOCUMENT_TYPE_MISMATCH',
      );
      await refused(submit({ documents: [] }), 'INVALID_PARAMETER');
      assert.deepEqual(await tableCounts(), before);
    });

    it('accepts a JPEG named .jpeg declared as the old image/jpg', async () => {
      const { request } = await submit({
        documents: [{ fileName: 'photo.jpeg', declaredType: 'image/jpg', content: jpegBytes() }],
      });
      const view = await getSenderRequest(store, { admin: true }, request.id);
      assert.equal(view.documents[0]!.contentType, 'image/jpeg');
    });

    it('refuses a name that breaks the spec rule, one under review, and one another account holds', async () => {
      await refused(submit({ name: 'TWELVECHARSX' }), 'INVALID_PARAMETER');
      await refused(submit({ name: 'BAD  NAME' }), 'INVALID_PARAMETER');
      await submit({ name: 'TAKEN1' });
      await refused(submit({ name: 'TAKEN1', accountId: otherAccountId }), 'SENDER_NAME_TAKEN');
      await store.createSender({
        accountId: otherAccountId,
        name: 'THEIRS',
        status: 'approved',
        nowMs: NOW_MS,
      });
      await refused(submit({ name: 'THEIRS' }), 'SENDER_NAME_TAKEN');
    });

    it('keeps each step of the history with who and when: changes requested, resubmitted, approved', async () => {
      const { request } = await submit();
      await refused(
        reviewSenderRequest(store, {
          requestId: request.id,
          actorUserId: ADMIN,
          ip: null,
          decision: 'request_changes',
          nowMs: NOW_MS,
        }),
        'INVALID_PARAMETER',
      );
      const asked = await reviewSenderRequest(store, {
        requestId: request.id,
        actorUserId: ADMIN,
        ip: null,
        decision: 'request_changes',
        note: 'The certificate is older than six months',
        nowMs: NOW_MS + 1_000,
      });
      assert.equal(asked.request.status, 'changes_requested');
      await refused(
        reviewSenderRequest(store, {
          requestId: request.id,
          actorUserId: ADMIN,
          ip: null,
          decision: 'approve',
          nowMs: NOW_MS,
        }),
        'INVALID_TRANSITION',
      );
      await refused(
        resubmitSenderRequest(store, {
          requestId: request.id,
          accountId: otherAccountId,
          actorUserId: 99,
          ip: null,
          details,
          documents: [],
          maxDocumentBytes: MAX_BYTES,
          nowMs: NOW_MS,
        }),
        'FORBIDDEN',
      );
      const again = await resubmitSenderRequest(store, {
        requestId: request.id,
        accountId,
        actorUserId: OWNER,
        ip: null,
        details: { ...details, sampleMessages: ['Your code is 654321', 'Code 111111'] },
        documents: [{ fileName: 'new-certificate.pdf', content: pdfBytes('New') }],
        maxDocumentBytes: MAX_BYTES,
        nowMs: NOW_MS + 2_000,
      });
      assert.equal(again.request.status, 'pending');
      assert.deepEqual(again.request.sampleMessages, ['Your code is 654321', 'Code 111111']);
      const approved = await reviewSenderRequest(store, {
        requestId: request.id,
        actorUserId: ADMIN,
        ip: null,
        decision: 'approve',
        nowMs: NOW_MS + 3_000,
      });
      assert.equal(approved.request.status, 'approved');
      assert.equal(approved.request.decidedAt, NOW_MS + 3_000);

      const view = await getSenderRequest(store, { admin: false, accountId }, request.id);
      assert.deepEqual(
        view.history.map((e) => [e.step, e.actorUserId, e.note, e.createdAt]),
        [
          ['submitted', OWNER, null, NOW_MS],
          ['changes_requested', ADMIN, 'The certificate is older than six months', NOW_MS + 1_000],
          ['resubmitted', OWNER, null, NOW_MS + 2_000],
          ['approved', ADMIN, null, NOW_MS + 3_000],
        ],
      );
      assert.equal(view.documents.length, 3);
      assert.equal(view.documents[2]!.eventId, view.history[2]!.id);
      assert.equal(view.sender?.status, 'approved');
      const visible = await store.listVisibleSenders(accountId);
      assert.ok(visible.some((s) => s.name === request.name && s.status === 'approved'));
    });

    it('rejects with a note, frees the name, and lists the queue oldest first', async () => {
      const first = await submit({ nowMs: NOW_MS - 5_000 });
      const second = await submit({ nowMs: NOW_MS - 4_000 });
      const queue = (await listReviewQueue(store)).map((r) => r.id);
      assert.ok(queue.indexOf(first.request.id) < queue.indexOf(second.request.id));
      const rejected = await reviewSenderRequest(store, {
        requestId: first.request.id,
        actorUserId: ADMIN,
        ip: null,
        decision: 'reject',
        note: 'Not your brand',
        nowMs: NOW_MS,
      });
      assert.equal(rejected.request.status, 'rejected');
      assert.ok(!(await listReviewQueue(store)).some((r) => r.id === first.request.id));
      // Once rejected, the name may be asked for again, by anyone.
      await submit({ name: first.request.name, accountId: otherAccountId });
      assert.equal(await store.findSenderByName(first.request.name), null);
      const own = await listAccountSenderRequests(store, accountId);
      assert.ok(own.every((r) => r.accountId === accountId));
    });

    it('lets exactly one of two reviewers deciding at once win', async () => {
      const { request } = await submit();
      const outcomes = await Promise.allSettled([
        reviewSenderRequest(store, {
          requestId: request.id,
          actorUserId: ADMIN,
          ip: null,
          decision: 'approve',
          nowMs: NOW_MS,
        }),
        reviewSenderRequest(store, {
          requestId: request.id,
          actorUserId: 2,
          ip: null,
          decision: 'reject',
          note: 'no',
          nowMs: NOW_MS,
        }),
      ]);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      const view = await getSenderRequest(store, { admin: true }, request.id);
      assert.equal(view.history.length, 2);
    });

    it('shows a request and its documents to its own account and admins only', async () => {
      const { request } = await submit();
      const own = { admin: false, accountId } as const;
      const view = await getSenderRequest(store, { admin: true }, request.id);
      const ownView = await getSenderRequest(store, own, request.id);
      assert.equal(ownView.request.id, request.id);
      assert.equal(ownView.request.accountId, accountId);
      assert.deepEqual(
        ownView.documents.map((d) => d.id),
        view.documents.map((d) => d.id),
      );
      assert.equal(view.documents.length, 2);
      for (const [viewer, document, bytes] of [
        [own, view.documents[0]!, pdfBytes()],
        [own, view.documents[1]!, pngBytes()],
        [{ admin: true } as const, view.documents[0]!, pdfBytes()],
      ] as const) {
        const stored = await getSenderDocument(store, viewer, document.id);
        assert.equal(stored.id, document.id);
        assert.deepEqual(Buffer.from(stored.content), bytes);
      }
      await refused(
        getSenderRequest(store, { admin: false, accountId: otherAccountId }, request.id),
        'FORBIDDEN',
      );
      await refused(
        getSenderDocument(
          store,
          { admin: false, accountId: otherAccountId },
          view.documents[0]!.id,
        ),
        'FORBIDDEN',
      );
      await refused(getSenderDocument(store, { admin: true }, 999_999), 'NOT_FOUND');
    });

    it('suspends, reinstates and shares an approved sender', async () => {
      const { request } = await submit();
      const { request: approved } = await reviewSenderRequest(store, {
        requestId: request.id,
        actorUserId: ADMIN,
        ip: null,
        decision: 'approve',
        nowMs: NOW_MS,
      });
      const senderId = approved.senderId!;
      const input = { senderId, actorUserId: ADMIN, ip: null, nowMs: NOW_MS };
      assert.equal((await suspendSender(store, input)).status, 'suspended');
      await refused(suspendSender(store, input), 'INVALID_TRANSITION');
      await refused(
        shareSender(store, { ...input, accountId: otherAccountId }),
        'INVALID_TRANSITION',
      );
      assert.equal((await reinstateSender(store, input)).status, 'approved');
      await shareSender(store, { ...input, accountId: otherAccountId });
      await refused(shareSender(store, { ...input, accountId }), 'INVALID_PARAMETER');
      const theirs = await store.listVisibleSenders(otherAccountId);
      assert.ok(theirs.some((s) => s.id === senderId && s.shared));
      assert.deepEqual(await store.senderShares(senderId), [otherAccountId]);
      await unshareSender(store, { ...input, accountId: otherAccountId });
      await refused(unshareSender(store, { ...input, accountId: otherAccountId }), 'NOT_FOUND');
      assert.ok(!(await store.listVisibleSenders(otherAccountId)).some((s) => s.id === senderId));
    });
  });
}
