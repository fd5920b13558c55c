import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, afterEach, before, describe, it } from 'node:test';
import pino from 'pino';
import { LifecycleEvents } from '../../src/domain/lifecycle-events.js';
import { startBackgroundJobs, type BackgroundJobs } from '../../src/scheduler/background-jobs.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { loadConfig } from '../../src/config.js';

const HOUR_MS = 3_600_000;
// Longer than any test moves the clock: every step here is started by wake() or by the start,
// never by the tick.
const INTERVAL_MS = 1000 * HOUR_MS;
const CHUNK_SIZE = 7;
const MAX_TURNS = 20_000;

for (const engine of testEngines()) {
  describe(`background jobs (${engine.name})`, () => {
    let h: Harness;
    let c: Customer;
    let jobs: BackgroundJobs | undefined;

    before(async () => {
      h = await createHarness(engine);
      c = await h.customer({ credits: 1_000_000 });
    });
    after(() => h.close());
    afterEach(async () => {
      await jobs?.stop();
      jobs = undefined;
    });

    function start(): BackgroundJobs {
      jobs = startBackgroundJobs({
        store: h.store,
        engine: h.db.database.engine,
        clock: h.clock,
        timers: h.clock,
        events: new LifecycleEvents(),
        logger: pino({ level: 'silent' }),
        intervalMs: INTERVAL_MS,
        chunkSize: CHUNK_SIZE,
        purge: { sessionLimits: loadConfig({}).sessionLimits },
      });
      return jobs;
    }

    async function send(count: number, options: { scheduledInMs?: number } = {}) {
      const payload = {
        sender: c.sender,
        content: 'Hello',
        msisdns: Array.from({ length: count }, (_, i) => `08${String(20_000_000 + i)}`),
        ...(options.scheduledInMs !== undefined
          ? { scheduledTime: new Date(h.clock.now() + options.scheduledInMs).toISOString() }
          : {}),
      };
      return (await h.store.findMessageByUuid((await h.send(c, payload)).uuid))!;
    }

    /** Awaits event-loop turns until `done` holds; fails after MAX_TURNS rather than hanging. */
    async function until(what: string, done: () => Promise<boolean>): Promise<void> {
      for (let turn = 0; turn < MAX_TURNS; turn++) {
        if (await done()) return;
        await nextTurn();
      }
      assert.fail(`gave up waiting until ${what}`);
    }

    const current = async (uuid: string) => (await h.store.findMessageByUuid(uuid))!;

    async function rowCount(messageId: number): Promise<number> {
      const row = await h.db.database.db
        .selectFrom('recipients')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it('materialises every recipient of a send in chunks', async () => {
      const message = await send(100);
      assert.equal(message.materialisedUpto, 0);
      start();
      const seen = new Set<number>();
      await until('the send is materialised', async () => {
        const upto = (await current(message.uuid)).materialisedUpto;
        seen.add(upto);
        return upto === 100;
      });
      assert.ok(
        [...seen].every((upto) => upto === 100 || upto % CHUNK_SIZE === 0),
        'whole chunks at a time',
      );
      assert.equal(await rowCount(message.id), 100);

      const later = await send(20);
      jobs!.wake();
      await until(
        'the second send is materialised',
        async () => (await current(later.uuid)).materialisedUpto === 20,
      );
      assert.equal(await rowCount(later.id), 20);
    });

    it('releases a scheduled message once the clock passes its time, and not before', async () => {
      const message = await send(3, { scheduledInMs: HOUR_MS });
      start();
      // The step that materialises it ran its release first, at a time before the message's.
      await until(
        'the scheduled send is materialised',
        async () => (await current(message.uuid)).materialisedUpto === 3,
      );
      assert.equal((await current(message.uuid)).status, 'scheduled');

      h.clock.advance(HOUR_MS - 1);
      const probe = await send(1);
      jobs!.wake();
      await until(
        'a step after the wake has run',
        async () => (await current(probe.uuid)).materialisedUpto === 1,
      );
      assert.equal(
        (await current(message.uuid)).status,
        'scheduled',
        'one millisecond early is early',
      );

      h.clock.advance(1);
      jobs!.wake();
      await until(
        'the message is released',
        async () => (await current(message.uuid)).status === 'pending',
      );
      const cancel = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${message.uuid}/cancel`,
        key: c.key,
      });
      assert.equal(cancel.statusCode, 409);
      assert.equal(cancel.json().code, 'ALREADY_PROCESSING');
    });

    it('releases a due message between chunks while a large send is still materialising', async () => {
      const scheduled = await send(1, { scheduledInMs: HOUR_MS });
      const backlog = await send(2000);
      start();
      await until(
        'materialisation has started',
        async () => (await current(backlog.uuid)).materialisedUpto > 0,
      );
      // Past the message's time and a whole interval: the next release between chunks is due.
      h.clock.advance(INTERVAL_MS);
      await until(
        'the scheduled message is released',
        async () => (await current(scheduled.uuid)).status === 'pending',
      );
      assert.ok(
        (await current(backlog.uuid)).materialisedUpto < 2000,
        'released before the backlog was done, not after it',
      );
    });

    it('does not lose a wake that arrives while a step is finishing', async () => {
      const scheduled = [];
      for (let i = 1; i <= 3; i++) scheduled.push(await send(1, { scheduledInMs: i * HOUR_MS }));
      start();
      for (const [i, due] of scheduled.entries()) {
        const probe = await send(1);
        jobs!.wake();
        await until(
          `probe ${i} is materialised`,
          async () => (await current(probe.uuid)).materialisedUpto === 1,
        );
        // The step that wrote the probe is now finishing (its last, empty chunk). A wake now
        // must still run one more step, which releases the message that has just become due.
        h.clock.advance(HOUR_MS);
        jobs!.wake();
        await until(
          `scheduled message ${i} is released`,
          async () => (await current(due.uuid)).status === 'pending',
        );
      }
    });

    it('stops between chunks: stop() resolves, no step runs after it, and no timer is left', async () => {
      const message = await send(700);
      const running = start();
      await until(
        'materialisation has started',
        async () => (await current(message.uuid)).materialisedUpto > 0,
      );
      await running.stop();
      jobs = undefined;
      assert.equal(h.clock.pendingTimers, 0, 'no timer of the jobs is pending');

      const stoppedAt = (await current(message.uuid)).materialisedUpto;
      assert.ok(stoppedAt < 700, 'stopped before the end');
      running.wake();
      const setBefore = h.clock.timersSet;
      for (let i = 0; i < 200; i++) await nextTurn();
      assert.equal(
        (await current(message.uuid)).materialisedUpto,
        stoppedAt,
        'nothing ran after stop',
      );
      assert.equal(h.clock.timersSet, setBefore, 'wake after stop schedules nothing');
      assert.equal(h.clock.pendingTimers, 0);
      await running.stop();

      // Another scheduler finishes the message where this one stopped.
      start();
      await until(
        'a new scheduler finishes it',
        async () => (await current(message.uuid)).materialisedUpto === 700,
      );
      assert.equal(await rowCount(message.id), 700);
    });

    it('stops at once when idle and leaves no timer', async () => {
      const idle = start();
      await until('the first step has run', async () => h.clock.pendingTimers > 0);
      assert.equal(h.clock.pendingTimers, 1, 'one tick is scheduled while idle');
      await idle.stop();
      jobs = undefined;
      assert.equal(h.clock.pendingTimers, 0);
    });
  });
}
