import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCarrierConfig } from '../../src/carriers/carrier-config.js';
import { createCarriers } from '../../src/carriers/start-carriers.js';
import { startSmsc } from '../../src/smsc/start-smsc.js';
import { duplicateKeys } from '../support/duplicate-keys.js';
import { simCarrier } from '../support/carriers-file.js';

/** A root logger as `nok` makes one, whose raw lines the test reads and waits on. */
function capture() {
  const lines: string[] = [];
  let waiters: { msg: string; count: number; resolve: () => void }[] = [];
  const count = (msg: string) => lines.filter((line) => JSON.parse(line).msg === msg).length;
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        lines.push(line.trimEnd());
        waiters = waiters.filter((w) => (count(w.msg) >= w.count ? (w.resolve(), false) : true));
      },
    },
  );
  const logged = (msg: string, wanted: number) =>
    count(msg) >= wanted
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ msg, count: wanted, resolve }));
  return { logger, lines, logged };
}

describe('log lines of a carrier session', () => {
  it('carry each field once, the carrier included, as binds go up and down', async () => {
    const log = capture();
    const smsc = await startSmsc({ logger: log.logger.child({ role: 'smsc' }) });
    const config = parseCarrierConfig({
      carriers: [
        simCarrier(smsc, { binds: 2, reconnect: { initialDelayMs: 10_000, maxDelayMs: 10_000 } }),
      ],
    });
    // The dispatcher's logger, as main.ts gives it to the carriers.
    const carriers = createCarriers(config, {
      logger: log.logger.child({ role: 'dispatcher' }),
      onReceipt: async () => undefined,
    });
    try {
      carriers.start();
      await log.logged('bind up', 2);
      await log.logged('carrier up', 1);
      await smsc.close();
      await log.logged('bind down', 2);
      await log.logged('carrier down', 1);
    } finally {
      await carriers.stop(1_000);
      await smsc.close();
    }

    const carrierLines = log.lines.filter((line) => JSON.parse(line).carrier !== undefined);
    assert.ok(carrierLines.length >= 6, log.lines.join('\n'));
    for (const line of carrierLines) assert.equal(JSON.parse(line).carrier, 'sim', line);
    for (const line of log.lines) assert.deepEqual(duplicateKeys(line), [], line);
  });
});

describe('duplicateKeys', () => {
  it('finds a key given twice in one object, at any depth, and nothing in clean JSON', () => {
    assert.deepEqual(duplicateKeys('{"a":1,"b":"x","a":2}'), ['a']);
    assert.deepEqual(duplicateKeys('{"a":{"b":[1,{"c":1,"c":"}"}]},"d":"\\"a\\""}'), ['c']);
    assert.deepEqual(duplicateKeys('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"a,a"}'), []);
    assert.deepEqual(duplicateKeys('{}'), []);
  });
});
