import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LifecycleEvents } from './lifecycle-events.js';

const complete = (messageId: number) => ({ messageId, accountId: 7, status: 'sent' }) as const;

describe('LifecycleEvents', () => {
  it('calls each listener of an event with it, until it is taken off', () => {
    const events = new LifecycleEvents();
    const seen: number[] = [];
    const off = events.on('messageComplete', (m) => seen.push(m.messageId));
    events.on('chunkClaimed', () => seen.push(-1));
    events.emit('messageComplete', complete(1));
    off();
    events.emit('messageComplete', complete(2));
    assert.deepEqual(seen, [1]);
  });

  it('resolves once with the first event that matches, and stops listening', async () => {
    const events = new LifecycleEvents();
    const second = events.once('messageComplete', (m) => m.messageId === 2);
    events.emit('messageComplete', complete(1));
    events.emit('messageComplete', complete(2));
    events.emit('messageComplete', complete(3));
    assert.deepEqual(await second, complete(2));
    // Listening ended with the match: a later emit calls nothing of it.
    const calls: number[] = [];
    events.on('messageComplete', (m) => calls.push(m.messageId));
    events.emit('messageComplete', complete(4));
    assert.deepEqual(calls, [4]);
  });

  it('rejects a wait with the reason its signal aborts with', async () => {
    const events = new LifecycleEvents();
    const controller = new AbortController();
    const waiting = events.once('messageComplete', () => true, controller.signal);
    controller.abort(new Error('gave up'));
    await assert.rejects(waiting, /gave up/);
    await assert.rejects(
      events.once('messageComplete', () => true, AbortSignal.abort(new Error('already'))),
      /already/,
    );
  });

  it('hands a throwing listener to its error handler and still calls the others', () => {
    const failures: string[] = [];
    const events = new LifecycleEvents((error, name) =>
      failures.push(`${name}: ${(error as Error).message}`),
    );
    const seen: number[] = [];
    events.on('messageComplete', () => {
      throw new Error('listener broke');
    });
    events.on('messageComplete', (m) => seen.push(m.messageId));
    assert.doesNotThrow(() => events.emit('messageComplete', complete(5)));
    assert.deepEqual(seen, [5]);
    assert.deepEqual(failures, ['messageComplete: listener broke']);
  });
});
