import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { NumberCollector } from '../../src/domain/recipients/number-collector.js';
import { RecipientLists } from '../../src/domain/recipients/recipient-lists.js';
import { LifecycleEvents } from '../../src/domain/lifecycle-events.js';
import { startBackgroundJobs } from '../../src/scheduler/background-jobs.js';
import { purgeExpired } from '../../src/scheduler/purge-expired.js';
import { loadConfig } from '../../src/config.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

const HOUR_MS = 60 * 60_000;
const MAX_TURNS = 20_000;
const silent = pino({ level: 'silent' });

function numbers(...texts: string[]) {
  const collector = new NumberCollector(texts.length);
  for (const text of texts) collector.addText(text);
  return collector.finish();
}

for (const engine of testEngines()) {
  describe(`purging uploaded lists (${engine.name})`, () => {
    let h: Harness;
    let lists: RecipientLists;
    let accountId: number;

    before(async () => {
      h = await createHarness(engine);
      lists = new RecipientLists(h.store, { ttlMs: HOUR_MS, perAccount: 10 });
      accountId = (await h.account()).id;
    });
    after(() => h.close());

    const kept = async (...ids: string[]) =>
      (await Promise.all(ids.map((id) => h.store.findRecipientList(id)))).map((l) => l !== null);

    const sessionLimits = loadConfig({}).sessionLimits;
    const purge = (batch = 1000) =>
      purgeExpired(h.store, { sessionLimits, nowMs: h.clock.now(), batch });

    it('deletes the lists whose hour is up and keeps the others, a batch at a time', async () => {
      const minute = 60_000;
      const old = await lists.keep(accountId, numbers('0812345678'), h.clock.now());
      h.clock.advance(minute);
      const soon = await lists.keep(accountId, numbers('0812345679', 'x'), h.clock.now());
      h.clock.advance(minute);
      const later = await lists.keep(accountId, numbers('0812345677'), h.clock.now());
      h.clock.advance(57 * minute);
      const newer = await lists.keep(accountId, numbers('0812345670'), h.clock.now());
      h.clock.advance(minute);
      assert.equal((await purge()).recipientLists, 1);
      assert.deepEqual(await kept(old.id, soon.id, later.id, newer.id), [false, true, true, true]);
      h.clock.advance(2 * minute);
      assert.equal((await purge(1)).recipientLists, 1, 'the oldest first, at most a batch');
      assert.deepEqual(await kept(soon.id, later.id, newer.id), [false, true, true]);
      assert.equal((await purge()).recipientLists, 1);
      assert.deepEqual(await kept(later.id, newer.id), [false, true]);
    });

    it('is one of the scheduler’s steps', async () => {
      const expired = await lists.keep(accountId, numbers('0812345670'), h.clock.now());
      h.clock.advance(HOUR_MS);
      const live = await lists.keep(accountId, numbers('0812345671'), h.clock.now());
      const jobs = startBackgroundJobs({
        store: h.store,
        engine: h.db.database.engine,
        clock: h.clock,
        timers: h.clock,
        events: new LifecycleEvents(),
        logger: silent,
        intervalMs: HOUR_MS,
        chunkSize: 100,
        purge: { sessionLimits },
      });
      try {
        let turns = 0;
        while ((await h.store.findRecipientList(expired.id)) !== null) {
          assert.ok(++turns < MAX_TURNS, 'the scheduler never purged the expired list');
          await nextTurn();
        }
        assert.deepEqual(await kept(live.id), [true]);
      } finally {
        await jobs.stop();
      }
    });
  });
}
