import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { systemTimers } from '../domain/timers.js';
import { FakeClock } from '../../test/support/fake-clock.js';
import { BatchWriter } from './batch-writer.js';

const logger = pino({ level: 'silent' });

function writer(
  options: { fail?: number; concurrency?: number; maxBatch?: number; delayMs?: number } = {},
) {
  const batches: number[][] = [];
  let failures = options.fail ?? 0;
  let running = 0;
  let mostAtOnce = 0;
  const release: (() => void)[] = [];
  const w = new BatchWriter<number>({
    write: async (items) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        if (options.concurrency) await new Promise<void>((resolve) => release.push(resolve));
        if (failures-- > 0) throw new Error('database gone');
        batches.push(items);
      } finally {
        running--;
      }
    },
    maxBatch: options.maxBatch ?? 100,
    delayMs: options.delayMs ?? 1,
    retryDelayMs: 1,
    concurrency: options.concurrency,
    timers: systemTimers,
    logger,
    what: 'test',
  });
  return { w, batches, release, mostAtOnce: () => mostAtOnce };
}

describe('BatchWriter', () => {
  it('writes items added together in one batch and resolves each once written', async () => {
    const { w, batches } = writer();
    await Promise.all([w.add(1), w.add(2), w.add(3)]);
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  it('writes at most maxBatch items per batch, in the order they were added', async () => {
    const { w, batches } = writer({ maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => w.add(n)));
    assert.deepEqual(batches, [[1, 2], [3, 4], [5]]);
  });

  it(
    'starts a write at once when a batch is full, without waiting for company',
    { timeout: 5_000 },
    async () => {
      // A minute's delay: only a full batch can be written before the test's timeout.
      const { w, batches } = writer({ maxBatch: 2, delayMs: 60_000 });
      await Promise.all([1, 2, 3, 4].map((n) => w.add(n)));
      assert.deepEqual(batches, [
        [1, 2],
        [3, 4],
      ]);
    },
  );

  it('writes the same items again after a failed write, dropping none', async () => {
    const { w, batches } = writer({ fail: 2 });
    await Promise.all([w.add(1), w.add(2)]);
    assert.deepEqual(batches, [[1, 2]]);
  });

  it('writes at most `concurrency` batches at once', async () => {
    const { w, batches, release, mostAtOnce } = writer({ concurrency: 2, maxBatch: 1 });
    let settled = false;
    const adds = Promise.all([1, 2, 3, 4].map((n) => w.add(n))).finally(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      release.splice(0).forEach((r) => r());
    }
    await adds;
    assert.deepEqual(batches, [[1], [2], [3], [4]]);
    assert.equal(mostAtOnce(), 2);
  });

  it('rejects what was never written when stopped, and refuses new items', async () => {
    const { w } = writer({ fail: 1_000 });
    const added = w.add(1);
    const rejected = assert.rejects(added, /stopped before it was written/);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await w.stop();
    await rejected;
    await assert.rejects(w.add(2), /stopped/);
  });

  it('waits for company and after a failure on its timers, and starts a full batch on none', async () => {
    const clock = new FakeClock();
    const batches: number[][] = [];
    let failures = 1;
    const w = new BatchWriter<number>({
      write: async (items) => {
        if (failures-- > 0) throw new Error('database gone');
        batches.push(items);
      },
      maxBatch: 3,
      delayMs: 50,
      retryDelayMs: 20,
      timers: clock,
      logger,
      what: 'test',
    });
    const turns = async () => {
      for (let i = 0; i < 20; i++) await nextTurn();
    };

    const first = w.add(1);
    await turns();
    assert.equal(clock.pendingTimers, 1, 'the wait for company');
    clock.advance(49);
    await turns();
    assert.equal(failures, 1, 'nothing written before delayMs');
    clock.advance(1);
    await turns();
    assert.equal(failures, 0, 'written once delayMs passed, and failed');
    assert.equal(clock.pendingTimers, 1, 'the wait after the failure');
    clock.advance(20);
    await first;
    assert.deepEqual(batches, [[1]]);

    await Promise.all([w.add(2), w.add(3), w.add(4)]);
    assert.deepEqual(batches, [[1], [2, 3, 4]], 'a full batch written without the clock moving');
    assert.equal(clock.pendingTimers, 0);
  });
});
