import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { LifecycleEvents } from '../../src/domain/lifecycle-events.js';
import { startBackgroundJobs, type BackgroundJobs } from '../../src/scheduler/background-jobs.js';
import { testEngines } from '../support/engines.js';
import { nextEvent } from '../support/lifecycle-waits.js';
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
    let events: LifecycleEvents;

    before(async () => {
      h = await createHarness(engine);
      c = await h.customer({ credits: 1_000_000 });
    });
    after(() => h.close());
    beforeEach(() => {
      events = new LifecycleEvents();
    });
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
        events,
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

    /** Resolves once the scheduler has committed every recipient row of the message. */
    function materialised(message: { id: number }): Promise<unknown> {
      return nextEvent(
        events,
        'recipientsMaterialised',
        (chunk) => chunk.messageId === message.id && chunk.toSeq === chunk.total,
        `message ${message.id} to be materialised`,
      );
    }

    /** Resolves once the scheduler has committed the message's release. */
    function released(message: { id: number }): Promise<unknown> {
      return nextEvent(
        events,
        'messagesReleased',
        (r) => r.messageIds.includes(message.id),
        `message ${message.id} to be released`,
      );
    }

    /**
     * Awaits event-loop turns until `done` holds (for what no event tells: a step that ends with
     * nothing to do); fails after MAX_TURNS rather than hanging.
     */
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

    it('materialises every recipient of a send in chunks, and tells of each once committed', async () => {
      const message = await send(100);
      assert.equal(message.materialisedUpto, 0);
      const told: number[] = [];
      const readAsTold: Promise<boolean>[] = [];
      events.on('recipientsMaterialised', (chunk) => {
        if (chunk.messageId !== message.id) return;
        told.push(chunk.toSeq);
        // A read started as the event comes sees the rows it tells of: it follows the commit.
        readAsTold.push(current(message.uuid).then((m) => m.materialisedUpto >= chunk.toSeq));
      });
      start();
      await materialised(message);
      assert.deepEqual(told, [7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 100]);
      assert.deepEqual(
        await Promise.all(readAsTold),
        told.map(() => true),
      );
      assert.equal((await current(message.uuid)).materialisedUpto, 100);
      assert.equal(await rowCount(message.id), 100);

      const later = await send(20);
      const laterDone = materialised(later);
      jobs!.wake();
      await laterDone;
      assert.equal(await rowCount(later.id), 20);
    });

    it('releases a scheduled message once the clock passes its time, and not before', async () => {
      const message = await send(3, { scheduledInMs: HOUR_MS });
      const written = materialised(message);
      start();
      // The step that materialises it ran its release first, at a time before the message's.
      await written;
      assert.equal((await current(message.uuid)).status, 'scheduled');

      h.clock.advance(HOUR_MS - 1);
      const probe = await send(1);
      // The probe's rows are written by a step after the wake, which released first.
      const probed = materialised(probe);
      jobs!.wake();
      await probed;
      assert.equal(
        (await current(message.uuid)).status,
        'scheduled',
        'one millisecond early is early',
      );

      h.clock.advance(1);
      const release = released(message);
      jobs!.wake();
      await release;
      assert.equal((await current(message.uuid)).status, 'pending');
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
      const started = nextEvent(
        events,
        'recipientsMaterialised',
        (chunk) => chunk.messageId === backlog.id,
        'the backlog to start',
      );
      const release = released(scheduled);
      start();
      await started;
      // Past the message's time and a whole interval: the next release between chunks is due.
      h.clock.advance(INTERVAL_MS);
      await release;
      assert.ok(
        (await current(backlog.uuid)).materialisedUpto < 2000,
        'released before the backlog was done, not after it',
      );
    });

    it('does not lose a wake that arrives while a step is finishing', async () => {
      const scheduled = [];
      for (let i = 1; i <= 3; i++) scheduled.push(await send(1, { scheduledInMs: i * HOUR_MS }));
      start();
      for (const due of scheduled) {
        const probe = await send(1);
        const probed = materialised(probe);
        jobs!.wake();
        await probed;
        // The step that wrote the probe is now finishing (its last, empty chunk). A wake now
        // must still run one more step, which releases the message that has just become due.
        h.clock.advance(HOUR_MS);
        const release = released(due);
        jobs!.wake();
        await release;
      }
    });

    it('stops between chunks: stop() resolves, no step runs after it, and no timer is left', async () => {
      const message = await send(700);
      const started = nextEvent(
        events,
        'recipientsMaterialised',
        (chunk) => chunk.messageId === message.id,
        'materialisation to start',
      );
      const running = start();
      await started;
      await running.stop();
      jobs = undefined;
      assert.equal(h.clock.pendingTimers, 0, 'no timer of the jobs is pending');

      const stoppedAt = (await current(message.uuid)).materialisedUpto;
      assert.ok(stoppedAt < 700, 'stopped before the end');
      let toldAfterStop = 0;
      const off = events.on('recipientsMaterialised', () => toldAfterStop++);
      running.wake();
      const setBefore = h.clock.timersSet;
      // Nothing may happen, and no event tells of nothing: a fixed number of turns.
      for (let i = 0; i < 200; i++) await nextTurn();
      off();
      assert.equal(toldAfterStop, 0, 'no step ran after stop');
      assert.equal((await current(message.uuid)).materialisedUpto, stoppedAt);
      assert.equal(h.clock.timersSet, setBefore, 'wake after stop schedules nothing');
      assert.equal(h.clock.pendingTimers, 0);
      await running.stop();

      // Another scheduler finishes the message where this one stopped.
      const finished = materialised(message);
      start();
      await finished;
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
