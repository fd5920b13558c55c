import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticate } from '../../src/domain/accounts/authenticate.js';
import { createApiKey } from '../../src/domain/accounts/create-api-key.js';
import { revokeApiKey } from '../../src/domain/accounts/revoke-api-key.js';
import { setAccountStatus } from '../../src/domain/accounts/set-account-status.js';
import { updateAccountSettings } from '../../src/domain/accounts/update-account-settings.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import { listLedger } from '../../src/domain/credits/list-ledger.js';
import { DomainError, type ErrorCode } from '../../src/domain/errors.js';
import { API_KEY_SCOPES as CONTRACT_SCOPES } from '../../src/api/console/contract/keys.js';
import { ACCOUNT_STATUSES as CONTRACT_STATUSES } from '../../src/api/console/contract/accounts.js';
import { LEDGER_REASONS } from '../../src/api/console/contract/credits.js';
import type { LedgerReason } from '../../src/domain/credits/ledger-store.js';
import { ACCOUNT_STATUSES, API_KEY_SCOPES } from '../../src/domain/statuses.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

const ACTOR = SYSTEM_ACTOR;

function rejectsWith(code: ErrorCode) {
  return (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.code, code, error.message);
    return true;
  };
}

for (const engine of testEngines()) {
  describe(`account management (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function balanceMatchesLedger(accountId: number): Promise<number> {
      const account = (await h.store.findAccount(accountId))!;
      assert.equal(account.balance, await h.store.ledgerSum(accountId));
      return account.balance;
    }

    it('grants and deducts with a note, keeping the balance equal to the ledger sum', async () => {
      const account = await h.account({ credits: 100 });
      const granted = await adjustCredits(h.store, {
        accountId: account.id,
        amount: 50,
        note: 'bank transfer 42',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(granted.balance, 150);
      const deducted = await adjustCredits(h.store, {
        accountId: account.id,
        amount: -30,
        note: '  refund of an overpayment ',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(deducted.balance, 120);
      assert.equal(await balanceMatchesLedger(account.id), 120);
      const page = await listLedger(h.store, { accountId: account.id, limit: 10 });
      assert.deepEqual(
        page.items.map((e) => [e.reason, e.delta, e.balanceAfter, e.note]),
        [
          ['adjustment', -30, 120, 'refund of an overpayment'],
          ['top-up', 50, 150, 'bank transfer 42'],
          ['top-up', 100, 100, 'opening credits'],
        ],
      );
    });

    it('refuses a deduction below 0 and changes nothing', async () => {
      const account = await h.account({ credits: 10 });
      await assert.rejects(
        adjustCredits(h.store, {
          accountId: account.id,
          amount: -11,
          note: 'too much',
          nowMs: h.clock.now(),
          actor: ACTOR,
        }),
        rejectsWith('INSUFFICIENT_CREDITS'),
      );
      assert.equal(await balanceMatchesLedger(account.id), 10);
      const emptied = await adjustCredits(h.store, {
        accountId: account.id,
        amount: -10,
        note: 'close',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(emptied.balance, 0);
    });

    it('refuses an amount of 0, a fraction, an empty note and an unknown account', async () => {
      const account = await h.account({ credits: 10 });
      const base = { accountId: account.id, note: 'x', nowMs: h.clock.now(), actor: ACTOR };
      for (const amount of [0, 1.5, Number.NaN]) {
        await assert.rejects(
          adjustCredits(h.store, { ...base, amount }),
          rejectsWith('INVALID_PARAMETER'),
        );
      }
      await assert.rejects(
        adjustCredits(h.store, { ...base, amount: 5, note: '   ' }),
        rejectsWith('INVALID_PARAMETER'),
      );
      await assert.rejects(
        adjustCredits(h.store, { ...base, amount: 5, accountId: 999_999 }),
        rejectsWith('NOT_FOUND'),
      );
      assert.equal(await balanceMatchesLedger(account.id), 10);
    });

    it('pages the ledger by cursor, newest first, linking sends to their message', async () => {
      const customer = await h.customer({ credits: 1000 });
      const sent = await h.send(customer, {
        sender: customer.sender,
        content: 'Hello',
        msisdns: ['0812345678'],
      });
      for (const amount of [1, 2, 3]) {
        await adjustCredits(h.store, {
          accountId: customer.account.id,
          amount,
          note: `grant ${amount}`,
          nowMs: h.clock.now(),
          actor: ACTOR,
        });
      }
      const seen = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await listLedger(h.store, {
          accountId: customer.account.id,
          cursor,
          limit: 2,
        });
        seen.push(...page.items);
        cursor = page.nextCursor ?? undefined;
        pages += 1;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(
        seen.map((e) => [e.reason, e.delta]),
        [
          ['top-up', 3],
          ['top-up', 2],
          ['top-up', 1],
          ['send', -1],
          ['top-up', 1000],
        ],
      );
      assert.equal(seen[3]!.messageUuid, sent.uuid);
      assert.equal(seen[0]!.messageUuid, null);
      await assert.rejects(
        listLedger(h.store, { accountId: customer.account.id, cursor: 'abc', limit: 2 }),
        rejectsWith('INVALID_PARAMETER'),
      );
    });

    it("a suspended account's valid key is 403 ACCOUNT_SUSPENDED on /api/v2; reactivated, it works", async () => {
      const customer = await h.customer();
      const balance = () =>
        h.request({ method: 'GET', url: '/api/v2/sms/credit/balance', key: customer.key });
      assert.equal((await balance()).statusCode, 200);

      const suspended = await setAccountStatus(h.store, {
        accountId: customer.account.id,
        status: 'suspended',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(suspended.changed, true);
      assert.equal(suspended.account.status, 'suspended');
      const refused = await balance();
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'ACCOUNT_SUSPENDED');
      await assert.rejects(authenticate(h.store, customer.key), rejectsWith('ACCOUNT_SUSPENDED'));
      // An invalid key learns nothing about the account: still the same 401.
      const wrong = `${customer.key.slice(0, -1)}${customer.key.endsWith('A') ? 'B' : 'A'}`;
      await assert.rejects(authenticate(h.store, wrong), rejectsWith('UNAUTHORIZED'));
      assert.equal(
        (
          await setAccountStatus(h.store, {
            accountId: customer.account.id,
            status: 'suspended',
            nowMs: h.clock.now(),
            actor: ACTOR,
          })
        ).changed,
        false,
      );

      await setAccountStatus(h.store, {
        accountId: customer.account.id,
        status: 'active',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal((await balance()).statusCode, 200);
    });

    it('sets price per part and rate limit, and refuses bad values', async () => {
      const account = await h.account();
      const { before: was, after: now } = await updateAccountSettings(h.store, {
        accountId: account.id,
        settings: { pricePerPart: 3, rateLimitRequests: 20 },
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(was.pricePerPart, 1);
      assert.equal(now.pricePerPart, 3);
      assert.equal(now.rateLimitRequests, 20);
      const cleared = await updateAccountSettings(h.store, {
        accountId: account.id,
        settings: { rateLimitRequests: null },
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      assert.equal(cleared.after.rateLimitRequests, null);
      assert.equal(cleared.after.pricePerPart, 3);
      for (const settings of [
        { pricePerPart: -1 },
        { pricePerPart: 0.5 },
        { rateLimitRequests: 0 },
      ]) {
        await assert.rejects(
          updateAccountSettings(h.store, {
            accountId: account.id,
            settings,
            nowMs: h.clock.now(),
            actor: ACTOR,
          }),
          rejectsWith('INVALID_PARAMETER'),
        );
      }
      assert.equal((await h.store.findAccount(account.id))!.pricePerPart, 3);
    });

    it('lists keys newest first and refuses to revoke another account’s key', async () => {
      const mine = await h.account();
      const theirs = await h.account();
      const first = await createApiKey(h.store, {
        accountId: mine.id,
        scopes: ['sms:read'],
        name: 'reporting',
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      const second = await createApiKey(h.store, {
        accountId: mine.id,
        scopes: ['*'],
        nowMs: h.clock.now(),
        actor: ACTOR,
      });
      const listed = await h.store.listApiKeys(mine.id);
      assert.deepEqual(
        listed.map((k) => [k.id, k.name, k.scopes]),
        [
          [second.record.id, 'default', ['*']],
          [first.record.id, 'reporting', ['sms:read']],
        ],
      );
      await assert.rejects(
        revokeApiKey(h.store, {
          keyId: first.record.id,
          accountId: theirs.id,
          nowMs: 1,
          actor: ACTOR,
        }),
        rejectsWith('FORBIDDEN'),
      );
      assert.equal((await h.store.findApiKey(first.record.id))!.revokedAt, null);
      await revokeApiKey(h.store, {
        keyId: first.record.id,
        accountId: mine.id,
        nowMs: 1,
        actor: ACTOR,
      });
      await assert.rejects(authenticate(h.store, first.key), rejectsWith('UNAUTHORIZED'));
    });

    it('lists accounts by page and finds them by a part of the name, wildcards taken literally', async () => {
      const tag = `Zq${Date.now() % 100000}`;
      const a = await h.account({ name: `${tag} Coffee` });
      const b = await h.account({ name: `${tag} 100% Tea` });
      const found = await h.store.listAccounts({ search: tag.toLowerCase(), offset: 0, limit: 10 });
      assert.deepEqual(
        found.items.map((x) => x.id),
        [a.id, b.id],
      );
      assert.equal(found.total, 2);
      const percent = await h.store.listAccounts({ search: `${tag} 100%`, offset: 0, limit: 10 });
      assert.deepEqual(
        percent.items.map((x) => x.id),
        [b.id],
      );
      const second = await h.store.listAccounts({ search: tag, offset: 1, limit: 1 });
      assert.deepEqual(
        second.items.map((x) => x.id),
        [b.id],
      );
      assert.equal(second.total, 2);
    });
  });
}

describe('console contract', () => {
  it('names the same scopes, ledger reasons and account statuses as the domain', () => {
    assert.deepEqual([...CONTRACT_SCOPES], [...API_KEY_SCOPES]);
    assert.deepEqual([...CONTRACT_STATUSES], [...ACCOUNT_STATUSES]);
    const reasons: readonly LedgerReason[] = LEDGER_REASONS;
    assert.equal(reasons.length, 5);
  });
});
