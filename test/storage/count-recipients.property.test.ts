import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Store } from '../../src/domain/store.js';
import {
  countRecipients,
  resolveRecipients,
} from '../../src/domain/recipients/resolve-recipients.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * A contact group's cost preview counts its recipients in the store (countRecipients) instead of
 * reading every member (resolveRecipients, what a send does): on random groups and blocklists,
 * the counts are the same. The numbers come from a small pool; half the groups are as imports
 * write them, the others hold numbers in either form and junk (stored through the store itself,
 * as no import does), so repeats of one number in both forms; blocklist entries are of either
 * form, in the account's scope, the platform's and another account's.
 */
const SEED = 20_261_201;
const RUNS = 60;
const POOL = 6;

const suffix = fc.integer({ min: 0, max: POOL - 1 }).map((n) => String(812_345_670 + n));
const international = suffix.map((s) => `66${s}`);
const entry = fc.oneof(
  international,
  suffix.map((s) => `0${s}`),
  fc.constantFrom('66812x45670', '12345', 'abc', '+66812345670'),
);
/** Half the groups as imports write them (all in the 66 form), half anyhow. */
const group = fc.oneof(
  fc.uniqueArray(international, { maxLength: POOL }),
  fc.uniqueArray(entry, { maxLength: 10 }),
);

for (const engine of testEngines()) {
  describe(`counting a contact group's recipients (${engine.name})`, () => {
    let h: Harness;
    let store: Store;
    let accountId: number;
    let otherId: number;

    before(async () => {
      h = await createHarness(engine);
      store = h.store;
      accountId = (await h.account()).id;
      otherId = (await h.account()).id;
    });
    after(() => h.close());

    async function clearBlocklists(): Promise<void> {
      for (const scope of [0, accountId, otherId]) {
        const numbers = [
          ...(await store.blocklistPage(scope, { search: null, limit: 100, offset: 0 })).items,
        ].map((e) => e.msisdn);
        if (numbers.length > 0) await store.removeFromBlocklist(scope, numbers);
      }
    }

    it('counts as reading every member would, without reading them when all are in the 66 form', async () => {
      let counted = 0;
      await fc.assert(
        fc.asyncProperty(
          group,
          fc.array(fc.tuple(fc.constantFrom('own', 'platform', 'other'), entry), { maxLength: 5 }),
          async (members, blocked) => {
            await clearBlocklists();
            const created = await store.createContactGroup({ accountId, name: 'g', nowMs: 0 });
            if (members.length > 0) await store.addContacts(created.id, members);
            for (const [scope, msisdn] of blocked) {
              const scopeId = scope === 'own' ? accountId : scope === 'platform' ? 0 : otherId;
              await store.addToBlocklist(scopeId, [msisdn], 0);
            }
            const outcome = (work: () => Promise<unknown>) =>
              work().then(
                (value) => ({ value }),
                (error: { code?: string; message?: string }) => ({
                  error: [error.code, error.message],
                }),
              );
            const resolved = await outcome(async () => {
              const { list: _list, ...counts } = await resolveRecipients(
                store,
                accountId,
                undefined,
                created.id,
              );
              return counts;
            });
            const fast = await outcome(() =>
              countRecipients(store, accountId, undefined, created.id),
            );
            assert.deepEqual(fast, resolved);
            if ((await store.contactGroupTally(created.id, accountId)) !== null) counted++;
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      // The store counted (rather than declined) in a good share of the runs.
      assert.ok(counted >= RUNS / 4, `the store counted ${counted} of ${RUNS} groups`);
    });

    it('counts a group of another account as forbidden and an unknown one as not found', async () => {
      const theirs = await store.createContactGroup({ accountId: otherId, name: 't', nowMs: 0 });
      await store.addContacts(theirs.id, ['66812345670']);
      await assert.rejects(countRecipients(store, accountId, undefined, theirs.id), {
        code: 'FORBIDDEN',
      });
      await assert.rejects(countRecipients(store, accountId, undefined, 987_654), {
        code: 'CONTACT_GROUP_NOT_FOUND',
      });
    });
  });
}

for (const engine of testEngines()) {
  describe(`groups stored before they were counted (${engine.name})`, () => {
    it('are read when a member is in another form, and counted otherwise', async () => {
      const { database, drop } = await engine.create({ migrated: false });
      try {
        const { migrations } = database.engine;
        const counting = migrations.find((m) => m.name === 'recipient-lists')!;
        for (const migration of migrations.filter((m) => m.id < counting.id)) {
          await database.engine.applyMigration(migration, 0);
        }
        const account = await database.db
          .insertInto('accounts')
          .values({
            name: 'a',
            status: 'active',
            price_per_part: 1,
            next_ref_no: 1,
            created_at: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const group = (name: string) =>
          database.db
            .insertInto('contact_groups')
            .values({ account_id: account.id, name, created_at: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
        const regular = await group('regular');
        const irregular = await group('irregular');
        await database.db
          .insertInto('contacts')
          .values([
            { group_id: regular.id, msisdn: '66812345670' },
            { group_id: regular.id, msisdn: '66812345671' },
            { group_id: irregular.id, msisdn: '66812345670' },
            { group_id: irregular.id, msisdn: '0812345670' },
          ])
          .execute();
        await database.engine.applyMigration(counting, 0);

        const store = createStore(database.db);
        assert.deepEqual(await store.contactGroupTally(regular.id, account.id), {
          members: 2,
          blocked: 0,
        });
        assert.equal(await store.contactGroupTally(irregular.id, account.id), null);
        const counts = await countRecipients(store, account.id, undefined, irregular.id);
        assert.deepEqual([counts.requested, counts.valid, counts.duplicates], [2, 1, 1]);
      } finally {
        await drop();
      }
    });
  });
}
