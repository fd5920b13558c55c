// Behaviour under load, not speed: the figures live in bench/. Margins are wide on purpose.
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { encodePdus } from '../../../src/carriers/smpp/encode-pdu.js';
import type { DeliverSmPdu } from '../../../src/carriers/smpp/pdu.js';
import { shortMessageFields } from '../../../src/carriers/smpp/short-message-fields.js';
import { message, openSession, startSmsc } from './session-fixture.js';

const BURST = 5_000;

describe('SMPP session under load', () => {
  it('completes a 5,000-submit burst in far fewer socket writes than PDUs', async (t) => {
    const smsc = await startSmsc(t);
    // What is counted is writes, not time: a response may be as late as a loaded machine makes
    // it (the fixture's 1 s once timed out the first submits while other test files ran).
    const session = await openSession(t, smsc, { windowSize: 100, responseTimeoutMs: 60_000 });
    const clientPort = smsc.connection.socket.remotePort;
    let writes = 0;
    const write = Socket.prototype.write;
    // Count the writes of the session's socket only: the one whose local port the SMSC sees.
    Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
      if (this.localPort === clientPort) writes++;
      return write.apply(this, args);
    } as Socket['write'];
    try {
      const results = await Promise.all(
        Array.from({ length: BURST }, (_, i) => session.submit(message(i))),
      );
      assert.equal(results.length, BURST);
      assert.ok(results.every((result, i) => result.messageId === `m${i}`));
    } finally {
      Socket.prototype.write = write;
    }
    assert.equal(smsc.submitsReceived, BURST);
    assert.ok(smsc.maxInFlight <= 100, `max in flight ${smsc.maxInFlight}`);
    assert.ok(writes > 0 && writes <= BURST / 10, `${writes} writes for ${BURST} submits`);
  });

  it('yields to the event loop between slices while 5,000 PDUs arrive at once', async (t) => {
    // Counted in turns of the event loop, not in milliseconds, so a busy machine cannot fail it:
    // a ticker re-arms itself with setImmediate (one run per loop turn); no more than two slices
    // (one read on 'data', one in the check phase) may be handled between two of its runs.
    const smsc = await startSmsc(t);
    let delivered = 0;
    let sinceTick = 0;
    let mostBetweenTicks = 0;
    let ticks = 0;
    await openSession(t, smsc, {
      onDeliver: () => {
        delivered++;
        sinceTick++;
        mostBetweenTicks = Math.max(mostBetweenTicks, sinceTick);
        return 0;
      },
    });
    const burst = encodePdus(
      Array.from({ length: BURST }, (_, i): DeliverSmPdu => ({
        command: 'deliver_sm',
        commandStatus: 0,
        sequenceNumber: i + 1,
        ...shortMessageFields({
          sourceAddr: '66812000001',
          destinationAddr: 'NOK',
          esmClass: 0x04,
          dataCoding: 0,
          shortMessage: Buffer.from(`id:${i} sub:001 dlvrd:001 stat:DELIVRD err:000 text:`),
        }),
      })),
    );
    const lastAnswer = smsc.nextPdu(
      (pdu) => pdu.command === 'deliver_sm_resp' && pdu.sequenceNumber === BURST,
    );
    let ticking = true;
    const tick = () => {
      ticks++;
      sinceTick = 0;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    smsc.connection.sendRaw(burst);
    await lastAnswer;
    ticking = false;
    assert.equal(delivered, BURST);
    const perTurn = 128; // the default maxPdusPerTurn
    assert.ok(mostBetweenTicks <= 2 * perTurn, `${mostBetweenTicks} PDUs in one turn`);
    assert.ok(ticks >= BURST / (2 * perTurn), `only ${ticks} turns for ${BURST} PDUs`);
  });

  it('takes no new submit while the socket is full, and sends it after drain', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'ignore' });
    const session = await openSession(t, smsc, { windowSize: 100_000, responseTimeoutMs: 30_000 });
    // ~12 MB in one turn, far more than the kernel takes while the SMSC reads nothing.
    smsc.connection.socket.pause();
    const flood = Array.from({ length: 40_000 }, (_, i) =>
      session
        .submit({ ...message(i), shortMessage: Buffer.alloc(254, 0x61) })
        .catch(() => undefined),
    );
    await new Promise(setImmediate); // the turn's write has been made, and refused more
    const late = session.submit(message(99_999)).catch(() => undefined);
    assert.equal(session.inFlight, flood.length);
    assert.equal(session.waiting, 1);

    const lateArrives = smsc.nextPdu(
      (pdu) => pdu.command === 'submit_sm' && pdu.destinationAddr === '66812099999',
    );
    smsc.connection.socket.resume();
    await lateArrives;
    assert.equal(session.waiting, 0);
    assert.equal(session.inFlight, flood.length + 1);
    session.destroy();
    await Promise.all([...flood, late]);
  });
});
