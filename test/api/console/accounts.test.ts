import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

function refused(response: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.json().code, code, response.body);
}

interface AuditLine {
  action: string;
  accountId: number | null;
  actorUserId: number | null;
  detail: Record<string, unknown>;
}

for (const engine of testEngines()) {
  describe(`console keys, credits and accounts (${engine.name})`, () => {
    let h: Harness;
    let admin: ConsoleActor;
    before(async () => {
      h = await createHarness(engine);
      admin = await consoleActor(h, 'admin');
    });
    after(() => h.close());

    async function auditOf(accountId: number): Promise<AuditLine[]> {
      const { items } = await h.store.listAuditEvents({ accountId, offset: 0, limit: 100 });
      return items as unknown as AuditLine[];
    }

    async function assertBalanced(accountId: number): Promise<number> {
      const account = (await h.store.findAccount(accountId))!;
      assert.equal(account.balance, await h.store.ledgerSum(accountId));
      return account.balance;
    }

    it('an owner creates a key, sees its secret once, and a key revoked here answers 401 on /api/v2 at once', async () => {
      const owner = await consoleActor(h, 'owner');
      const accountId = owner.account!.id;
      const created = ok<{
        apiKey: { id: number; prefix: string; scopes: string[] };
        secret: string;
      }>(
        await owner.request({
          method: 'POST',
          url: '/keys',
          payload: { name: 'billing server', scopes: ['sms:read'] },
        }),
        201,
      );
      assert.match(created.secret, new RegExp(`^nok_${created.apiKey.prefix}_`));
      assert.deepEqual(created.apiKey.scopes, ['sms:read']);
      const balance = () =>
        h.request({ method: 'GET', url: '/api/v2/sms/credit/balance', key: created.secret });
      assert.equal((await balance()).statusCode, 200);

      const listed = await owner.request({ method: 'GET', url: '/keys' });
      const keys = ok<{ data: { id: number; name: string; lastUsedAt: string | null }[] }>(listed);
      assert.deepEqual(
        keys.data.map((k) => k.name),
        ['billing server'],
      );
      assert.ok(keys.data[0]!.lastUsedAt, 'the /api/v2 call is its last use');
      assert.ok(!listed.body.includes(created.secret), 'a list never shows the secret');

      const revoked = ok<{ revokedAt: string | null }>(
        await owner.request({ method: 'DELETE', url: `/keys/${created.apiKey.id}` }),
      );
      assert.ok(revoked.revokedAt);
      refused(await balance(), 401, 'UNAUTHORIZED');
      // Revoking again changes nothing and is no error.
      ok(await owner.request({ method: 'DELETE', url: `/keys/${created.apiKey.id}` }));

      const audit = await auditOf(accountId);
      const actions = audit.map((line) => line.action);
      assert.ok(actions.includes('api-key.create'), actions.join());
      assert.equal(actions.filter((a) => a === 'api-key.revoke').length, 1);
      const creation = audit.find((line) => line.action === 'api-key.create')!;
      assert.equal(creation.actorUserId, owner.user.id);
      assert.equal(creation.detail.prefix, created.apiKey.prefix);
      assert.ok(!JSON.stringify(audit).includes(created.secret), 'the audit log holds no key');
    });

    it('keeps a member off the keys and credits API, and an owner off another account’s key', async () => {
      const owner = await consoleActor(h, 'owner');
      const member = await consoleActor(h, 'member', { account: owner.account! });
      refused(await member.request({ method: 'GET', url: '/keys' }), 403, 'FORBIDDEN');
      refused(
        await member.request({
          method: 'POST',
          url: '/keys',
          payload: { name: 'x', scopes: ['*'] },
        }),
        403,
        'FORBIDDEN',
      );
      refused(await member.request({ method: 'GET', url: '/credits' }), 403, 'FORBIDDEN');

      const other = await consoleActor(h, 'owner');
      const { id } = await h.key(other.account!.id);
      refused(await owner.request({ method: 'DELETE', url: `/keys/${id}` }), 403, 'FORBIDDEN');
      assert.equal((await h.store.findApiKey(id))!.revokedAt, null);
      refused(await owner.request({ method: 'DELETE', url: '/keys/99999999' }), 404, 'NOT_FOUND');
      refused(
        await owner.request({ method: 'POST', url: '/keys', payload: { name: 'x', scopes: [] } }),
        400,
        'INVALID_PARAMETER',
      );
    });

    it('shows the owner the balance and the ledger by cursor, sends linked to their message', async () => {
      const owner = await consoleActor(h, 'owner');
      const accountId = owner.account!.id;
      await h.sender(accountId, `LEDGER${accountId}`.slice(0, 11));
      const { key } = await h.key(accountId);
      ok(
        await admin.request({
          method: 'POST',
          url: `/admin/accounts/${accountId}/credits`,
          payload: { kind: 'grant', amount: 100, note: 'first top-up' },
        }),
      );
      const sent = await h.send(
        { key },
        { sender: `LEDGER${accountId}`.slice(0, 11), content: 'Hi', msisdns: ['0812345678'] },
      );
      const first = ok<{
        balance: number;
        pricePerPart: number;
        data: { reason: string; delta: number; messageUuid: string | null; note: string | null }[];
        nextCursor: string | null;
      }>(await owner.request({ method: 'GET', url: '/credits?limit=1' }));
      assert.equal(first.balance, 99);
      assert.deepEqual(
        first.data.map((e) => [e.reason, e.delta, e.messageUuid]),
        [['send', -1, sent.uuid]],
      );
      assert.ok(first.nextCursor);
      const second = ok<typeof first>(
        await owner.request({ method: 'GET', url: `/credits?limit=1&cursor=${first.nextCursor}` }),
      );
      assert.deepEqual(
        second.data.map((e) => [e.reason, e.delta, e.note]),
        [['top-up', 100, 'first top-up']],
      );
      assert.equal(second.nextCursor, null);
      refused(
        await owner.request({ method: 'GET', url: '/credits?cursor=nonsense' }),
        400,
        'INVALID_PARAMETER',
      );
      refused(
        await owner.request({ method: 'GET', url: '/credits?limit=1000' }),
        400,
        'INVALID_PARAMETER',
      );
    });

    it('lets an admin create an account, grant and deduct with a note, keeping balance = ledger sum', async () => {
      const created = ok<{ id: number; balance: number; status: string }>(
        await admin.request({
          method: 'POST',
          url: '/admin/accounts',
          payload: { name: 'Siam Coffee', credits: 500, pricePerPart: 2 },
        }),
        201,
      );
      assert.equal(created.balance, 500);
      assert.equal(created.status, 'active');
      const adjust = (kind: string, amount: number, note = 'manual') =>
        admin.request({
          method: 'POST',
          url: `/admin/accounts/${created.id}/credits`,
          payload: { kind, amount, note },
        });
      assert.equal(ok<{ balance: number }>(await adjust('grant', 250, 'transfer 77')).balance, 750);
      assert.equal(ok<{ balance: number }>(await adjust('deduct', 50)).balance, 700);
      refused(await adjust('deduct', 701), 402, 'INSUFFICIENT_CREDITS');
      refused(await adjust('grant', 0), 400, 'INVALID_PARAMETER');
      refused(await adjust('grant', 5, '  '), 400, 'INVALID_PARAMETER');
      refused(await adjust('grant', 1.5), 400, 'INVALID_PARAMETER');
      assert.equal(await assertBalanced(created.id), 700);

      const settings = ok<{ pricePerPart: number; rateLimitRequests: number | null }>(
        await admin.request({
          method: 'PATCH',
          url: `/admin/accounts/${created.id}`,
          payload: { pricePerPart: 3, rateLimitRequests: 120 },
        }),
      );
      assert.deepEqual(settings.pricePerPart, 3);
      assert.deepEqual(settings.rateLimitRequests, 120);
      refused(
        await admin.request({ method: 'PATCH', url: `/admin/accounts/${created.id}`, payload: {} }),
        400,
        'INVALID_PARAMETER',
      );

      const list = ok<{ data: { id: number; name: string }[]; total: number }>(
        await admin.request({ method: 'GET', url: '/admin/accounts?search=siam%20coff' }),
      );
      assert.ok(list.data.some((a) => a.id === created.id));
      const detail = ok<{ balance: number; pricePerPart: number; senders: unknown[] }>(
        await admin.request({ method: 'GET', url: `/admin/accounts/${created.id}` }),
      );
      assert.equal(detail.balance, 700);
      refused(
        await admin.request({ method: 'GET', url: '/admin/accounts/99999999' }),
        404,
        'NOT_FOUND',
      );

      const actions = (await auditOf(created.id)).map((line) => line.action).sort();
      assert.deepEqual(actions, [
        'account.create',
        'account.settings',
        'credits.deduct',
        'credits.grant',
      ]);
    });

    it('suspends an account: its keys answer 403 on /api/v2 and its users cannot act; reactivated, both work', async () => {
      const owner = await consoleActor(h, 'owner');
      const accountId = owner.account!.id;
      const { key } = await h.key(accountId);
      const apiBalance = () => h.request({ method: 'GET', url: '/api/v2/sms/credit/balance', key });
      const setStatus = (status: string) =>
        admin.request({
          method: 'PUT',
          url: `/admin/accounts/${accountId}/status`,
          payload: { status },
        });

      assert.equal(ok<{ status: string }>(await setStatus('suspended')).status, 'suspended');
      const refusedApi = await apiBalance();
      refused(refusedApi, 403, 'ACCOUNT_SUSPENDED');
      assert.match(refusedApi.json().error, /suspended/);
      refused(await owner.request({ method: 'GET', url: '/keys' }), 403, 'ACCOUNT_SUSPENDED');
      refused(
        await owner.request({
          method: 'POST',
          url: '/keys',
          payload: { name: 'x', scopes: ['*'] },
        }),
        403,
        'ACCOUNT_SUSPENDED',
      );
      assert.deepEqual(await h.store.listApiKeys(accountId).then((k) => k.length), 1);
      // Setting the same status again changes nothing and writes no second audit line.
      ok(await setStatus('suspended'));

      assert.equal(ok<{ status: string }>(await setStatus('active')).status, 'active');
      assert.equal((await apiBalance()).statusCode, 200);
      ok(await owner.request({ method: 'GET', url: '/keys' }));
      refused(await setStatus('closed'), 400, 'INVALID_PARAMETER');

      const actions = (await auditOf(accountId)).map((line) => line.action);
      assert.equal(actions.filter((a) => a === 'account.suspend').length, 1);
      assert.equal(actions.filter((a) => a === 'account.reactivate').length, 1);
    });
  });
}
