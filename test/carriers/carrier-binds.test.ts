import assert from 'node:assert/strict';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { CarrierDownError } from '../../src/carriers/carrier-down-error.js';
import { CommandStatus, type DeliverSmPdu } from '../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../src/carriers/smpp/receipt-of.js';
import { shortMessageFields } from '../../src/carriers/smpp/short-message-fields.js';
import { FakeClock } from '../support/fake-clock.js';
import { message } from './smpp/session-fixture.js';
import { carrierAt, closedPort, isMsg, startedCarrier } from './carrier-binds-fixture.js';

const isDown = (error: unknown) => error instanceof CarrierDownError;

describe('Carrier binds', () => {
  it('opens the configured number of transceiver binds with the carrier credentials', async (t) => {
    const { smsc, binds } = await startedCarrier(t, { binds: 3 });
    assert.equal(binds.up, true);
    assert.equal(smsc.connections.length, 3);
    for (const connection of smsc.connections)
      assert.deepEqual(connection.received[0], {
        command: 'bind_transceiver',
        commandStatus: 0,
        sequenceNumber: 1,
        systemId: 'nok',
        password: 'secret',
        systemType: 'NOK',
        interfaceVersion: 0x34,
        addrTon: 0,
        addrNpi: 0,
        addressRange: '',
      });
    const status = binds.status();
    assert.equal(status.name, 'test-carrier');
    assert.equal(status.bindsUp, 3);
    assert.equal(status.bindsWanted, 3);
    assert.equal(status.receiversUp, 3);
    assert.equal(status.lastError, null);
  });

  it('spreads submits over the windows of all binds, the emptiest first', async (t) => {
    const { smsc, binds } = await startedCarrier(
      t,
      { binds: 3, windowSize: 4 },
      { onSubmit: (index) => (index < 12 ? 'hold' : 'answer') },
    );
    const results = Array.from({ length: 15 }, (_, i) => binds.submit(message(i)));
    await smsc.heldCount(12);
    const submitsOf = (i: number) =>
      smsc.connections[i]!.received.filter((pdu) => pdu.command === 'submit_sm').length;
    // Every window is full; the rest wait for whichever window frees first.
    assert.deepEqual([submitsOf(0), submitsOf(1), submitsOf(2)], [4, 4, 4]);
    assert.equal(binds.status().inFlight, 12);
    assert.equal(binds.status().waiting, 3);
    smsc.releaseSubmits();
    assert.equal((await Promise.all(results)).length, 15);
    assert.equal(submitsOf(0) + submitsOf(1) + submitsOf(2), 15);
    assert.equal(smsc.maxInFlight, 12);
  });

  it('holds the carrier submits per second across all its binds', async (t) => {
    const arrivals: number[] = [];
    const { smsc, binds } = await startedCarrier(
      t,
      { binds: 2, windowSize: 50, submitsPerSecond: 500 },
      { onSubmit: () => (arrivals.push(performance.now()), 'answer') },
    );
    // The SMSC reads in this process: while its event loop stalls, submits sent at the rate
    // arrive together when it resumes. The longest stall widens the window they may fill.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    await Promise.all(Array.from({ length: 300 }, (_, i) => binds.submit(message(i))));
    stalls.disable();
    // 300 at 500/s, less a burst of 25: about 0.55 s. Behaviour, not a benchmark: wide margins.
    const spanMs = arrivals.at(-1)! - arrivals[0]!;
    assert.ok(spanMs >= 450, `300 submits in ${spanMs.toFixed(0)} ms`);
    const windowMs = 200;
    const stallMs = stalls.max / 1e6;
    // 100 a window at 500/s (more by what a stall held back), the burst of 25, slack for a timer.
    const most = Math.ceil((500 * (windowMs + stallMs)) / 1000) + 25 + 35;
    for (const start of arrivals) {
      const inWindow = arrivals.filter((at) => at >= start && at < start + windowMs).length;
      assert.ok(
        inWindow <= most,
        `${inWindow} submits within ${windowMs} ms (at most ${most}; longest stall ${stallMs.toFixed(0)} ms)`,
      );
    }
    const perBind = smsc.connections.map(
      (connection) => connection.received.filter((pdu) => pdu.command === 'submit_sm').length,
    );
    assert.ok(
      perBind.every((count) => count >= 50),
      `submits per bind ${perBind}`,
    );
  });

  it('slows down when throttled and climbs back to the limit', async (t) => {
    const clock = new FakeClock();
    const { binds } = await startedCarrier(
      t,
      { submitsPerSecond: 100 },
      {},
      { now: () => clock.now() },
    );
    binds.throttled();
    assert.equal(binds.status().currentRatePerSecond, 50);
    binds.throttled();
    assert.equal(binds.status().currentRatePerSecond, 50, 'at most one halving a second');
    clock.advance(1_000);
    binds.throttled();
    assert.equal(binds.status().currentRatePerSecond, 25);

    // At 25/s the bucket holds one submit and the next waits 40 ms for its token.
    await binds.submit(message(1));
    const second = binds.submit(message(2));
    assert.equal(binds.status().waiting, 1);
    clock.advance(40);
    assert.equal((await second).commandStatus, 0);

    // After a quiet second (40 ms of it gone already), +10 % of the limit a second, up to it.
    clock.advance(960);
    assert.equal(binds.status().currentRatePerSecond, 25);
    clock.advance(2_000);
    assert.equal(binds.status().currentRatePerSecond, 45);
    clock.advance(10_000);
    assert.equal(binds.status().currentRatePerSecond, 100);
    assert.equal(binds.status().submitsPerSecondLimit, 100);
  });

  it('rejects at once with CarrierDownError when no bind is up', async (t) => {
    // Nothing listens where the carrier is: every attempt fails, the binds stay down.
    const { binds, log } = carrierAt(t, await closedPort());
    await assert.rejects(binds.submit(message(1)), isDown);
    binds.start();
    await log.count(isMsg('bind failed'), 1);
    assert.equal(binds.up, false);
    await assert.rejects(binds.submit(message(2)), (error: unknown) => {
      assert.ok(error instanceof CarrierDownError);
      assert.equal(error.carrier, 'test-carrier');
      assert.match(error.reason, /transceiver 1 failed/);
      return true;
    });
    assert.match(binds.status().lastError ?? '', /ECONNREFUSED/);
  });

  it('fails the submits waiting for the rate limit when the last bind goes down', async (t) => {
    const clock = new FakeClock();
    const { smsc, binds, log } = await startedCarrier(
      t,
      { submitsPerSecond: 10, reconnect: { initialDelayMs: 5_000, maxDelayMs: 5_000 } },
      {},
      { now: () => clock.now() },
    );
    await binds.submit(message(1));
    // The clock stands still: without a token this one would wait for good.
    const waiting = binds.submit(message(2));
    assert.equal(binds.status().waiting, 1);
    smsc.dropConnections();
    await assert.rejects(waiting, isDown);
    await log.count(isMsg('carrier down'), 1);
    assert.equal(binds.status().waiting, 0);
  });

  it('submits on transmitters and takes receipts from receivers in transmitter+receiver mode', async (t) => {
    const delivered: DeliverSmPdu[] = [];
    const { smsc, binds, log } = await startedCarrier(
      t,
      { bindMode: 'transmitter+receiver', binds: 2 },
      {},
      { onDeliver: (pdu) => (delivered.push(pdu), 0) },
    );
    const modes = smsc.connections.map((connection) => connection.received[0]?.command).sort();
    assert.deepEqual(modes, [
      'bind_receiver',
      'bind_receiver',
      'bind_transmitter',
      'bind_transmitter',
    ]);
    assert.deepEqual(
      [binds.status().bindsUp, binds.status().receiversUp, binds.status().bindsWanted],
      [2, 2, 2],
    );
    const results = await Promise.all([1, 2, 3, 4].map((n) => binds.submit(message(n))));
    for (const connection of smsc.connections) {
      const submits = connection.received.filter((pdu) => pdu.command === 'submit_sm').length;
      const isTransmitter = connection.received[0]?.command === 'bind_transmitter';
      assert.equal(submits, isTransmitter ? 2 : 0);
    }

    const receiver = smsc.connections.find((c) => c.received[0]?.command === 'bind_receiver')!;
    const answered = smsc.nextPdu((pdu) => pdu.command === 'deliver_sm_resp');
    receiver.send(receipt(receiver.nextSequence(), results[0]!.messageId));
    assert.equal((await answered).commandStatus, 0);
    assert.equal(receiptOf(delivered[0]!)?.messageId, results[0]!.messageId);
    assert.ok(receiver.received.some((pdu) => pdu.command === 'deliver_sm_resp'));

    // Receivers alone do not make the carrier up: they cannot submit.
    const transmitters = smsc.connections.filter(
      (c) => c.received[0]?.command === 'bind_transmitter',
    );
    smsc.behaviour.bindStatus = CommandStatus.ESME_RBINDFAIL;
    for (const connection of transmitters) connection.socket.destroy();
    await log.count(isMsg('carrier down'), 1);
    await assert.rejects(binds.submit(message(5)), isDown);
    assert.equal(binds.status().receiversUp, 2);
  });
});

function receipt(sequenceNumber: number, messageId: string): DeliverSmPdu {
  return {
    command: 'deliver_sm',
    commandStatus: 0,
    sequenceNumber,
    ...shortMessageFields({
      sourceAddr: '66812000001',
      destinationAddr: 'NOK',
      esmClass: 0x04,
      dataCoding: 0,
      shortMessage: Buffer.from(`id:${messageId} sub:001 dlvrd:001 stat:DELIVRD err:000`),
    }),
  };
}
