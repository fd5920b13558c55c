import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { encodeMessageText } from '../../src/carriers/smpp/message-text.js';
import { CommandStatus } from '../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../src/carriers/smpp/receipt-of.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import type { SmscOptions } from '../../src/smsc/smsc-options.js';
import { RawSmppClient } from './raw-smpp-client.js';

const numbers = Array.from({ length: 1000 }, (_, i) => String(66_800_000_000 + i * 7919));

const mixed: SmscOptions = {
  seed: 42,
  failedRatio: 0.1,
  expiredRatio: 0.05,
  rejectedRatio: 0.05,
  noReceiptRatio: 0.1,
};

/** Receipts the SMSC owes once every submit is answered, receipt delay 0: sent or queued. */
function receiptsOwed(smsc: RunningSmsc): number {
  const sent = Object.values(smsc.stats.receiptsSent).reduce((a, b) => a + b, 0);
  return sent + smsc.stats.receiptsQueued;
}

describe('SMSC simulator: behaviours', () => {
  const running: RunningSmsc[] = [];
  const clients: RawSmppClient[] = [];

  async function start(options: SmscOptions = {}): Promise<RunningSmsc> {
    const smsc = await startSmsc(options);
    running.push(smsc);
    return smsc;
  }

  async function bound(smsc: RunningSmsc): Promise<RawSmppClient> {
    const c = await RawSmppClient.bound(smsc.port);
    clients.push(c);
    return c;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((s) => s.close()));
  });

  /** Submits one part to each number and returns each number's receipt stat, or null. */
  async function fates(options: SmscOptions): Promise<(string | null)[]> {
    const smsc = await start(options);
    const c = await bound(smsc);
    const responses = await Promise.all(numbers.map((n) => c.submit({ destinationAddr: n })));
    const byId = new Map(
      (await c.receipts(receiptsOwed(smsc))).map((r) => [
        receiptOf(r)!.messageId,
        receiptOf(r)!.stat,
      ]),
    );
    return responses.map((r) => byId.get(r.messageId) ?? null);
  }

  it('splits 1,000 numbers by the ratios, the same way on every run with one seed', async () => {
    const first = await fates(mixed);
    const count = (stat: string | null) => first.filter((f) => f === stat).length;
    for (const [stat, expected] of [
      ['DELIVRD', 700],
      ['UNDELIV', 100],
      ['EXPIRED', 50],
      ['REJECTD', 50],
      [null, 100],
    ] as const) {
      assert.ok(Math.abs(count(stat) - expected) <= 35, `${stat}: ${count(stat)} for ${expected}`);
    }
    assert.deepEqual(await fates(mixed), first);
    assert.notDeepEqual(await fates({ ...mixed, seed: 43 }), first);
  });

  it('gives every part of a long message to one number the same fate', async () => {
    const smsc = await start({ ...mixed, recordSubmits: true });
    const c = await bound(smsc);
    const encoded = encodeMessageText('สวัสดีครับ'.repeat(30), 9); // 300 units: 5 parts
    const recipients = numbers.slice(0, 100);
    for (const destinationAddr of recipients) {
      for (const part of encoded.parts) {
        void c.submit({
          destinationAddr,
          dataCoding: 8,
          esmClass: encoded.esmClass,
          shortMessage: part,
        });
      }
    }
    await c.waitFor((p) => p.command === 'submit_sm_resp', 500);
    const owed = receiptsOwed(smsc);
    const receipts = await c.receipts(owed);
    const destinationOf = new Map(smsc.stats.submits.map((s) => [s.messageId, s.destinationAddr]));
    const statsOf = new Map<string, Set<string>>();
    for (const r of receipts) {
      const receipt = receiptOf(r)!;
      const destination = destinationOf.get(receipt.messageId)!;
      statsOf.set(destination, (statsOf.get(destination) ?? new Set()).add(receipt.stat));
    }
    assert.equal(owed % 5, 0);
    assert.ok(statsOf.size > 70);
    for (const [destination, stats] of statsOf) assert.equal(stats.size, 1, destination);
    assert.equal(smsc.stats.messagesAccepted, 100);
    assert.equal(smsc.stats.partsAccepted, 500);
    assert.deepEqual(smsc.stats.submits[1]!.udh, { reference: 9, total: 5, seq: 2 });
    assert.equal(
      smsc.stats.submits
        .slice(0, 5)
        .map((s) => s.text)
        .join(''),
      'สวัสดีครับ'.repeat(30),
    );
  });

  it('answers ESME_RINVDSTADR for a destination with an invalid prefix', async () => {
    const smsc = await start({ invalidPrefixes: ['66999', '1'] });
    const c = await bound(smsc);
    assert.equal(
      (await c.submit({ destinationAddr: '66999123456' })).commandStatus,
      CommandStatus.ESME_RINVDSTADR,
    );
    assert.equal(
      (await c.submit({ destinationAddr: '123' })).commandStatus,
      CommandStatus.ESME_RINVDSTADR,
    );
    assert.equal(
      (await c.submit({ destinationAddr: '66998123456' })).commandStatus,
      CommandStatus.ESME_ROK,
    );
    assert.equal(smsc.stats.submitsInvalidDestination, 2);
    assert.equal(smsc.stats.partsAccepted, 1);
  });

  it('throttles submits beyond the rate with ESME_RTHROTTLED, per system_id', async () => {
    const smsc = await start({
      throttleAboveSubmitsPerSecond: 100,
      accounts: [
        { systemId: 'nok', password: 'nok' },
        { systemId: 'other', password: 'other' },
      ],
    });
    const c = await bound(smsc);
    const statuses = await Promise.all(
      numbers
        .slice(0, 300)
        .map((n) => c.submit({ destinationAddr: n }).then((r) => r.commandStatus)),
    );
    assert.equal(statuses.filter((s) => s === CommandStatus.ESME_ROK).length, 100);
    assert.equal(statuses.filter((s) => s === CommandStatus.ESME_RTHROTTLED).length, 200);
    const other = await RawSmppClient.bound(smsc.port, 'transceiver', 'other', 'other');
    clients.push(other);
    assert.equal(
      (await other.submit({ destinationAddr: '66812345678' })).commandStatus,
      CommandStatus.ESME_ROK,
    );
  });

  it('drops the connection abruptly at the Nth submit, without answering it', async () => {
    const smsc = await start({ preset: 'drop', dropConnectionAfterSubmits: 3 });
    const c = await bound(smsc);
    const answered = await Promise.all([
      c.submit({ destinationAddr: '66811111111' }),
      c.submit({ destinationAddr: '66822222222' }),
    ]);
    assert.deepEqual(
      answered.map((r) => r.commandStatus),
      [0, 0],
    );
    void c.submit({ destinationAddr: '66833333333' });
    await c.closed;
    assert.equal(c.received.filter((p) => p.command === 'submit_sm_resp').length, 2);
    assert.equal(smsc.stats.submitsDropped, 1);
    const again = await bound(smsc); // each new connection gets N submits again
    assert.equal((await again.submit({ destinationAddr: '66844444444' })).commandStatus, 0);
  });

  it('delays responses and receipts as configured', async () => {
    const smsc = await start({ submitResponseDelayMs: 30, receiptDelayMs: { min: 40, max: 60 } });
    const c = await bound(smsc);
    const startedAt = performance.now();
    await c.submit({ destinationAddr: '66812345678' });
    const respondedAt = performance.now();
    await c.receipts(1);
    const receiptAt = performance.now();
    assert.ok(respondedAt - startedAt >= 25, `response after ${respondedAt - startedAt} ms`);
    assert.ok(receiptAt - startedAt >= 35, `receipt after ${receiptAt - startedAt} ms`);
  });

  it('answers but owes no receipt in the no-receipt preset', async () => {
    const smsc = await start({ preset: 'no-receipt' });
    const c = await bound(smsc);
    const responses = await Promise.all(
      numbers.slice(0, 50).map((n) => c.submit({ destinationAddr: n })),
    );
    assert.ok(responses.every((r) => r.commandStatus === CommandStatus.ESME_ROK));
    assert.equal(receiptsOwed(smsc), 0); // with no delay, an owed receipt would be counted by now
  });

  it('answers submits after 200 ms in the slow preset', async () => {
    const smsc = await start({ preset: 'slow', receiptDelayMs: 0 });
    const c = await bound(smsc);
    const startedAt = performance.now();
    await c.submit({ destinationAddr: '66812345678' });
    assert.ok(performance.now() - startedAt >= 190);
  });

  it('throttles above 100 submits per second in the throttling preset', async () => {
    const smsc = await start({ preset: 'throttling' });
    const c = await bound(smsc);
    const statuses = await Promise.all(
      numbers
        .slice(0, 150)
        .map((n) => c.submit({ destinationAddr: n }).then((r) => r.commandStatus)),
    );
    assert.equal(statuses.filter((s) => s === CommandStatus.ESME_RTHROTTLED).length, 50);
  });

  it('keeps no submit record unless asked', async () => {
    const smsc = await start();
    const c = await bound(smsc);
    await c.submit({ destinationAddr: '66812345678' });
    assert.deepEqual(smsc.stats.submits, []);
    assert.equal(smsc.stats.partsAccepted, 1);
  });
});
