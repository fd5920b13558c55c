import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { executableBytes, pdfBytes, pngBytes } from '../../support/documents.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { multipartBody } from '../../support/multipart.js';
import { expectError } from '../../support/security-suite.js';

const MAX_BYTES = 32 * 1024;

const form = (name: string) =>
  JSON.stringify({
    name,
    purpose: 'transactional',
    sampleMessages: ['Your parcel 123 is on its way'],
    registrationNumber: '0105551234567',
  });

interface Detail {
  id: number;
  status: string;
  history: {
    step: string;
    note: string | null;
    actor: { id: number; name: string | null } | null;
  }[];
  documents: { id: number; fileName: string; contentType: string; url: string }[];
  sender: { id: number; status: string; sharedWith: number[] } | null;
}

for (const engine of testEngines()) {
  describe(`sender names in the console API (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let other: ConsoleActor;
    let admin: ConsoleActor;

    before(async () => {
      h = await createHarness(engine, { senderDocumentMaxBytes: MAX_BYTES });
      owner = await consoleActor(h, 'owner');
      member = await consoleActor(h, 'member', { account: owner.account! });
      other = await consoleActor(h, 'owner');
      admin = await consoleActor(h, 'admin');
    });
    after(() => h.close());

    async function submit(
      as: ConsoleActor,
      name: string,
      files: Parameters<typeof multipartBody>[1] = [
        { name: 'certificate.pdf', type: 'application/pdf', content: pdfBytes() },
        { name: 'id-card.png', type: 'image/png', content: pngBytes() },
      ],
      url = '/sender-requests',
      fields: Record<string, string> = { request: form(name) },
    ) {
      const body = await multipartBody(fields, files);
      return as.request({ method: 'POST', url, ...body, headers: body.headers });
    }

    async function stored() {
      const count = async (table: 'sender_requests' | 'sender_documents' | 'audit_events') =>
        Number(
          (
            await h.db.database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return [
        await count('sender_requests'),
        await count('sender_documents'),
        await count('audit_events'),
      ];
    }

    it('takes a request with a PDF and a PNG, typed by their bytes, and audits it', async () => {
      const response = await submit(owner, 'PARCELS');
      assert.equal(response.statusCode, 200, response.body);
      const detail = response.json() as Detail;
      assert.equal(detail.status, 'pending');
      assert.deepEqual(
        detail.documents.map((d) => [d.fileName, d.contentType]),
        [
          ['certificate.pdf', 'application/pdf'],
          ['id-card.png', 'image/png'],
        ],
      );
      assert.deepEqual(
        detail.history.map((s) => [s.step, s.actor?.id]),
        [['submitted', owner.user.id]],
      );
      const audit = await h.store.listAuditEvents({
        accountId: owner.account!.id,
        action: 'sender-request.',
        offset: 0,
        limit: 10,
      });
      assert.ok(
        audit.items.some(
          (e) => e.action === 'sender-request.submit' && e.actorUserId === owner.user.id,
        ),
      );
      const list = await owner.request({ method: 'GET', url: '/sender-requests' });
      assert.ok(
        (list.json() as { data: { name: string }[] }).data.some((r) => r.name === 'PARCELS'),
      );
    });

    it('refuses a renamed executable, an oversize file and a mismatched type, changing nothing', async () => {
      const before = await stored();
      expectError(
        await submit(owner, 'EXE1', [
          { name: 'scan.pdf', type: 'application/pdf', content: executableBytes() },
        ]),
        415,
        'DOCUMENT_TYPE_NOT_ALLOWED',
      );
      expectError(
        await submit(owner, 'BIG1', [
          {
            name: 'big.pdf',
            type: 'application/pdf',
            content: Buffer.concat([pdfBytes(), Buffer.alloc(MAX_BYTES)]),
          },
        ]),
        413,
        'DOCUMENT_TOO_LARGE',
      );
      expectError(
        await submit(owner, 'MIX1', [
          { name: 'photo.pdf', type: 'application/pdf', content: pngBytes() },
        ]),
        415,
        'DOCUMENT_TYPE_MISMATCH',
      );
      expectError(
        await submit(owner, 'MIX2', [
          { name: 'letter.png', type: 'image/png', content: pdfBytes() },
        ]),
        415,
        'DOCUMENT_TYPE_MISMATCH',
      );
      expectError(await submit(owner, 'NODOC', []), 400, 'INVALID_PARAMETER');
      expectError(await submit(owner, 'TWELVECHARS1'), 400, 'INVALID_PARAMETER');
      expectError(
        await submit(owner, 'X', undefined, '/sender-requests', { request: '{not json' }),
        400,
        'INVALID_JSON',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/sender-requests',
          payload: { name: 'JSON1' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await submit(member, 'MEMBER1'), 403, 'FORBIDDEN');
      assert.deepEqual(await stored(), before);
    });

    it('serves a document as a nosniff attachment to its account and admins, and 403 to another account', async () => {
      const detail = (await submit(owner, 'DOCS1')).json() as Detail;
      const png = detail.documents[1]!;
      for (const actor of [owner, member, admin]) {
        const response = await actor.request({ method: 'GET', url: png.url });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['content-type'], 'image/png');
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
        assert.match(
          String(response.headers['content-disposition']),
          /^attachment; filename="id-card.png"/,
        );
        assert.deepEqual(response.rawPayload, pngBytes());
      }
      expectError(await other.request({ method: 'GET', url: png.url }), 403, 'FORBIDDEN');
      expectError(
        await other.request({ method: 'GET', url: `/sender-requests/${detail.id}` }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await admin.request({ method: 'GET', url: '/sender-documents/999999' }),
        404,
        'NOT_FOUND',
      );
    });

    it('lists every sender for admins, however it was made, with its account and shares; found by a part of the name and by status, and paged', async () => {
      const shop = await h.account({ name: 'Listing Shop' });
      const cafe = await h.account({ name: 'Listing Cafe' });
      // Made as the operator's command line and the demo make them: no request behind them.
      await h.sender(shop.id, 'LSTSHOP');
      await h.sender(shop.id, 'LSTWAIT', 'pending');
      await h.sender(cafe.id, 'LST_50%');
      interface Row {
        id: number;
        name: string;
        status: string;
        account: { id: number; name: string };
        sharedWith: { id: number; name: string }[];
      }
      const list = async (query: Record<string, string>) => {
        const response = await admin.request({
          method: 'GET',
          url: `/admin/senders?${new URLSearchParams(query)}`,
        });
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as { data: Row[]; total: number; offset: number; limit: number };
      };

      const all = await list({ search: 'lst' });
      assert.deepEqual(
        all.data.map((row) => [row.name, row.status, row.account.name]),
        [
          ['LSTSHOP', 'approved', 'Listing Shop'],
          ['LSTWAIT', 'pending', 'Listing Shop'],
          ['LST_50%', 'approved', 'Listing Cafe'],
        ],
      );
      assert.equal(all.total, 3);
      assert.deepEqual(all.data[0]!.account, { id: shop.id, name: 'Listing Shop' });
      // LIKE's wildcards are searched as themselves.
      assert.deepEqual(
        (await list({ search: 'LST_' })).data.map((row) => row.name),
        ['LST_50%'],
      );
      assert.deepEqual(
        (await list({ search: '50%' })).data.map((row) => row.name),
        ['LST_50%'],
      );
      assert.deepEqual(
        (await list({ search: 'lst', status: 'pending' })).data.map((row) => row.name),
        ['LSTWAIT'],
      );
      const first = await list({ search: 'lst', limit: '2' });
      const second = await list({ search: 'lst', limit: '2', offset: '2' });
      assert.deepEqual(
        [...first.data, ...second.data].map((row) => row.name),
        all.data.map((row) => row.name),
      );
      assert.equal(second.total, 3);

      const senderId = all.data[0]!.id;
      const act = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
        admin.request({ method, url: `/admin/senders/${senderId}${url}`, payload });
      assert.equal((await act('POST', '/suspend')).statusCode, 200);
      assert.equal((await list({ search: 'lstshop' })).data[0]!.status, 'suspended');
      assert.equal((await act('POST', '/reinstate')).statusCode, 200);
      assert.equal((await act('POST', '/shares', { accountId: cafe.id })).statusCode, 200);
      assert.deepEqual((await list({ search: 'lstshop' })).data[0], {
        ...all.data[0],
        sharedWith: [{ id: cafe.id, name: 'Listing Cafe' }],
      });
      assert.equal((await act('DELETE', `/shares/${cafe.id}`)).statusCode, 200);
      assert.deepEqual((await list({ search: 'lstshop' })).data[0]!.sharedWith, []);
    });

    it('refuses a malformed sender list query with 400', async () => {
      for (const query of [
        'status=nope',
        'limit=1000',
        'offset=-1',
        'search=%00',
        'search=%E0%B8%81',
      ]) {
        expectError(
          await admin.request({ method: 'GET', url: `/admin/senders?${query}` }),
          400,
          'INVALID_PARAMETER',
        );
      }
    });

    it('keeps the history: changes requested with a note, resubmitted, approved; then /api/v2 sends from it', async () => {
      const detail = (await submit(owner, 'SHOPNOW')).json() as Detail;
      const queue = await admin.request({ method: 'GET', url: '/admin/sender-requests' });
      assert.ok((queue.json() as { data: { id: number }[] }).data.some((r) => r.id === detail.id));

      const review = (body: object) =>
        admin.request({
          method: 'POST',
          url: `/admin/sender-requests/${detail.id}/review`,
          payload: body,
        });
      expectError(await review({ decision: 'request_changes' }), 400);
      const asked = await review({
        decision: 'request_changes',
        note: 'Send a certificate under 6 months old',
      });
      assert.equal(asked.statusCode, 200, asked.body);

      const seen = (
        await owner.request({ method: 'GET', url: `/sender-requests/${detail.id}` })
      ).json() as Detail;
      assert.equal(seen.status, 'changes_requested');
      assert.equal(seen.history.at(-1)?.note, 'Send a certificate under 6 months old');

      const resubmitted = await submit(
        owner,
        'SHOPNOW',
        [{ name: 'new-certificate.pdf', type: 'application/pdf', content: pdfBytes('Renewed') }],
        `/sender-requests/${detail.id}/resubmit`,
        {
          request: JSON.stringify({
            purpose: 'transactional',
            sampleMessages: ['Your parcel 123 is on its way'],
            registrationNumber: '0105551234567',
          }),
        },
      );
      assert.equal(resubmitted.statusCode, 200, resubmitted.body);
      assert.equal((resubmitted.json() as Detail).documents.length, 3);

      const approved = await review({ decision: 'approve' });
      assert.equal(approved.statusCode, 200, approved.body);
      const final = approved.json() as Detail;
      assert.deepEqual(
        final.history.map((s) => s.step),
        ['submitted', 'changes_requested', 'resubmitted', 'approved'],
      );
      assert.equal(final.sender?.status, 'approved');
      expectError(
        await review({ decision: 'reject', note: 'too late' }),
        409,
        'INVALID_TRANSITION',
      );

      const { key } = await h.key(owner.account!.id);
      const senders = await h.request({ method: 'GET', url: '/api/v2/senders', key });
      assert.ok(
        (senders.json() as { data: { name: string; status: string }[] }).data.some(
          (s) => s.name === 'SHOPNOW' && s.status === 'approved',
        ),
      );
      await h.store.transaction((tx) =>
        tx.changeBalance({
          accountId: owner.account!.id,
          delta: 100,
          reason: 'top-up',
          nowMs: h.clock.now(),
        }),
      );
      const sent = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key,
        payload: { sender: 'SHOPNOW', content: 'Hello', msisdns: ['0812345678'] },
      });
      assert.equal(sent.statusCode, 200, sent.body);

      // Suspended: /api/v2 refuses it; shared: the other account lists it.
      const senderId = final.sender!.id;
      assert.equal(
        (await admin.request({ method: 'POST', url: `/admin/senders/${senderId}/suspend` }))
          .statusCode,
        200,
      );
      const refused = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key,
        payload: { sender: 'SHOPNOW', content: 'Hello', msisdns: ['0812345678'] },
      });
      expectError(refused, 400, 'SENDER_NOT_APPROVED');
      await admin.request({ method: 'POST', url: `/admin/senders/${senderId}/reinstate` });
      const shared = await admin.request({
        method: 'POST',
        url: `/admin/senders/${senderId}/shares`,
        payload: { accountId: other.account!.id },
      });
      assert.equal(shared.statusCode, 200, shared.body);
      const theirs = (await other.request({ method: 'GET', url: '/senders' })).json() as {
        data: { name: string; shared: boolean; status: string }[];
      };
      assert.ok(
        theirs.data.some((s) => s.name === 'SHOPNOW' && s.shared && s.status === 'approved'),
      );

      const actions = (await h.store.listAuditEvents({ offset: 0, limit: 100 })).items.map(
        (e) => e.action,
      );
      for (const action of [
        'sender-request.request-changes',
        'sender-request.resubmit',
        'sender-request.approve',
        'sender.suspend',
        'sender.reinstate',
        'sender.share',
      ]) {
        assert.ok(actions.includes(action), `audit has ${action}`);
      }
    });
  });
}
