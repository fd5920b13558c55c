// A real delivery path for tests: the HTTP app and store of the harness, the built-in SMSC on a
// free port of 127.0.0.1, carriers' binds over real sockets, the materialiser and a dispatcher.
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { parseCarrierConfig } from '../../src/carriers/carrier-config.js';
import { createCarriers, type Carriers } from '../../src/carriers/start-carriers.js';
import type { DispatchObserver } from '../../src/dispatcher/dispatcher-options.js';
import { startDispatcher, type Dispatcher } from '../../src/dispatcher/dispatcher.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { systemClock } from '../../src/domain/clock.js';
import { LifecycleEvents } from '../../src/domain/lifecycle-events.js';
import { systemTimers } from '../../src/domain/timers.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import type { SmscOptions } from '../../src/smsc/smsc-options.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import type { Harness } from './harness.js';

const silent = pino({ level: 'silent' });

export interface CarrierSpec {
  readonly name: string;
  /** Options of the SMSC this carrier binds to; null: a port where nothing listens. */
  readonly smsc: SmscOptions | null;
  readonly settings?: Record<string, unknown>;
}

export interface DeliveryRig {
  readonly smscs: ReadonlyMap<string, RunningSmsc>;
  readonly dispatchers: Dispatcher[];
  readonly carriers: Carriers[];
  /** What every dispatcher of the rig tells, once committed. */
  readonly events: LifecycleEvents;
  /** Writes every recipient row now (the scheduler's materialiser). */
  materialise(): Promise<void>;
  /** Another dispatcher process on the same store, with binds of its own. */
  addDispatcher(): void;
  /** Replaces a carrier's SMSC by one with other options on the same port. */
  restartSmsc(name: string, options: SmscOptions): Promise<void>;
  close(): Promise<void>;
}

export async function startDeliveryRig(
  h: Harness,
  specs: readonly CarrierSpec[],
  options: {
    retryWindowMs?: number;
    receiptWindowMs?: number;
    dispatchers?: number;
    /** Told of every dispatcher's submits and receipts, as metrics and daily figures are. */
    observer?: DispatchObserver;
  } = {},
): Promise<DeliveryRig> {
  const smscs = new Map<string, RunningSmsc>();
  const carrierJson: Record<string, unknown>[] = [];
  for (const spec of specs) {
    let port = 1; // nothing listens on port 1 of 127.0.0.1 for an unprivileged test
    if (spec.smsc) {
      const smsc = await startSmsc({ seed: 7, firstMessageId: 1000, ...spec.smsc });
      smscs.set(spec.name, smsc);
      port = smsc.port;
    }
    carrierJson.push({
      name: spec.name,
      host: '127.0.0.1',
      port,
      systemId: 'nok',
      password: 'nok',
      binds: 2,
      windowSize: 50,
      submitsPerSecond: 20_000,
      // Generous: on a loaded machine a short timeout retries submits the SMSC did answer, and
      // the tests count submits. No test here relies on a response timing out.
      responseTimeoutMs: 15_000,
      receiptWindowMs: options.receiptWindowMs ?? 60_000,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      ...spec.settings,
    });
  }
  const config = parseCarrierConfig({ carriers: carrierJson });
  const dispatchers: Dispatcher[] = [];
  const carrierSets: Carriers[] = [];
  const events = new LifecycleEvents();

  const addDispatcher = () => {
    const index = dispatchers.length;
    const carriers = createCarriers(config, {
      logger: silent,
      onReceipt: (report) => dispatchers[index]!.recordReceipt(report),
    });
    const dispatcher = startDispatcher({
      delivery: h.db.database.delivery,
      route: carriers.route,
      clock: systemClock,
      timers: systemTimers,
      events,
      logger: silent,
      owner: `test-dispatcher-${index}`,
      chunkSize: 100,
      leaseMs: 60_000,
      maxInFlight: 200,
      idlePollMs: 20,
      retry: { initialDelayMs: 20, maxDelayMs: 200, windowMs: options.retryWindowMs ?? 30_000 },
      receiptWindowsMs: carriers.receiptWindowsMs,
      defaultReceiptWindowMs: options.receiptWindowMs ?? 60_000,
      sweepIntervalMs: 50,
      commit: loadConfig({}).dispatch.commit,
      observer: options.observer,
    });
    dispatchers.push(dispatcher);
    carrierSets.push(carriers);
    carriers.start();
  };
  for (let i = 0; i < (options.dispatchers ?? 1); i++) addDispatcher();

  return {
    smscs,
    dispatchers,
    carriers: carrierSets,
    events,
    async materialise() {
      const cache = new CompactListCache();
      while (
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 5000, Date.now())) > 0
      );
      for (const d of dispatchers) d.wake();
    },
    addDispatcher,
    async restartSmsc(name, smscOptions) {
      const old = smscs.get(name)!;
      await old.close();
      smscs.set(
        name,
        await startSmsc({ seed: 7, firstMessageId: 500_000, ...smscOptions, port: old.port }),
      );
    },
    async close() {
      await Promise.all(dispatchers.map((d) => d.stop(2_000)));
      await Promise.all(carrierSets.map((c) => c.stop(2_000)));
      await Promise.all(dispatchers.map((d) => d.stopReceipts()));
      await Promise.all([...smscs.values()].map((s) => s.close()));
    },
  };
}

/**
 * Resolves once `check` holds, checking every few milliseconds; rejects after `timeoutMs`. Only
 * for what no lifecycle event tells (an SMSC's counters, a client's answers): what the store
 * holds is awaited with `whenTold` (lifecycle-waits.ts).
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
