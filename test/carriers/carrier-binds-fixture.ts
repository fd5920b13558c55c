// A carrier's binds against a TestSmsc, with short delays, a log that tests can wait on, and both
// closed after the test: the binds first, so that nothing reconnects to a closing SMSC.
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import pino, { type Logger } from 'pino';
import {
  type CarrierBinds,
  type CarrierBindsDeps,
  createCarrierBinds,
} from '../../src/carriers/carrier-binds.js';
import type { CarrierSettings } from '../../src/carriers/carrier-config.js';
import { type SmscBehaviour, TestSmsc } from '../support/test-smsc.js';

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly carrier?: string;
  readonly bind?: string;
  readonly reason?: string;
  readonly retryInMs?: number;
  readonly commandStatus?: string;
}

export const INFO = 30;
export const WARN = 40;

/** A pino logger whose lines a test reads, and waits for: a bind going up is an event to await. */
export function capturedLog() {
  const lines: LogLine[] = [];
  let waiters: { test: (line: LogLine) => boolean; count: number; resolve: () => void }[] = [];
  const matching = (test: (line: LogLine) => boolean) => lines.filter(test);
  const logger: Logger = pino(
    { level: 'info' },
    {
      write(text: string) {
        lines.push(JSON.parse(text) as LogLine);
        waiters = waiters.filter((waiter) => {
          if (matching(waiter.test).length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
      },
    },
  );
  return {
    logger,
    lines,
    matching,
    /** Resolves with the matching lines once `count` of them (since the start) have been logged. */
    async count(test: (line: LogLine) => boolean, count: number): Promise<LogLine[]> {
      if (matching(test).length < count)
        await new Promise<void>((resolve) => waiters.push({ test, count, resolve }));
      return matching(test);
    },
  };
}

export type CapturedLog = ReturnType<typeof capturedLog>;

export const isMsg = (msg: string) => (line: LogLine) => line.msg === msg;

export function carrierSettings(
  port: number,
  settings: Partial<CarrierSettings> = {},
): CarrierSettings {
  return {
    name: 'test-carrier',
    host: '127.0.0.1',
    port,
    systemId: 'nok',
    password: 'secret',
    systemType: 'NOK',
    bindMode: 'transceiver',
    binds: 1,
    windowSize: 10,
    submitsPerSecond: 100_000,
    enquireLinkIntervalMs: 60_000,
    responseTimeoutMs: 1_000,
    receiptWindowMs: 60_000,
    reconnect: { initialDelayMs: 10, maxDelayMs: 80 },
    routing: { prefixes: ['66'], priority: 1 },
    ...settings,
  };
}

export interface CarrierUnderTest {
  readonly smsc: TestSmsc;
  readonly binds: CarrierBinds;
  readonly log: CapturedLog;
}

/** The carrier's binds to `port`, not started; stopped after the test. */
export function carrierAt(
  t: TestContext,
  port: number,
  settings: Partial<CarrierSettings> = {},
  deps: Partial<CarrierBindsDeps> = {},
): { binds: CarrierBinds; log: CapturedLog } {
  const log = capturedLog();
  const binds = createCarrierBinds(carrierSettings(port, settings), {
    logger: log.logger,
    onDeliver: () => 0,
    ...deps,
  });
  t.after(() => binds.stop(1_000));
  return { binds, log };
}

/** Starts a TestSmsc and the carrier's binds against it (not started: call binds.start()). */
export async function carrierAgainstSmsc(
  t: TestContext,
  settings: Partial<CarrierSettings> = {},
  behaviour: Partial<SmscBehaviour> = {},
  deps: Partial<CarrierBindsDeps> = {},
): Promise<CarrierUnderTest> {
  const smsc = await TestSmsc.start(behaviour);
  // Registered first, so it runs first: the binds stop before the SMSC goes.
  const { binds, log } = carrierAt(t, smsc.port, settings, deps);
  t.after(() => smsc.close());
  return { smsc, binds, log };
}

/** A port on 127.0.0.1 where nothing listens (it did a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts the binds and resolves once `count` of them are up. */
export async function startedCarrier(
  t: TestContext,
  settings: Partial<CarrierSettings> = {},
  behaviour: Partial<SmscBehaviour> = {},
  deps: Partial<CarrierBindsDeps> = {},
): Promise<CarrierUnderTest> {
  const carrier = await carrierAgainstSmsc(t, settings, behaviour, deps);
  carrier.binds.start();
  const wanted = (settings.binds ?? 1) * (settings.bindMode === 'transmitter+receiver' ? 2 : 1);
  await carrier.log.count(isMsg('bind up'), wanted);
  return carrier;
}

/**
 * The kinds of handles the process holds, by kind: what a stopped carrier must give back. A
 * closed socket's handle is freed in libuv's close phase, a loop iteration or two after its
 * 'close' event, so this waits two turns first.
 */
export async function activeHandles(): Promise<Record<string, number>> {
  await setImmediate();
  await setImmediate();
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
