import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommandStatus } from '../../../src/carriers/smpp/pdu.js';
import {
  PduEncodeError,
  ResponseTimeoutError,
  SessionClosedError,
} from '../../../src/carriers/smpp/smpp-errors.js';
import { message, openSession, startSmsc } from './session-fixture.js';

describe('SMPP session: submit', () => {
  it('resolves with the submit_sm_resp, a refusal included', async (t) => {
    const smsc = await startSmsc(t, {
      submitStatus: (i) => (i === 1 ? CommandStatus.ESME_RINVDSTADR : 0),
    });
    const session = await openSession(t, smsc);
    assert.deepEqual(await session.submit(message(1)), { commandStatus: 0, messageId: 'm0' });
    assert.deepEqual(await session.submit(message(2)), {
      commandStatus: CommandStatus.ESME_RINVDSTADR,
      messageId: '',
    });
    const sent = smsc.connection.received.filter((pdu) => pdu.command === 'submit_sm');
    assert.deepEqual(
      sent.map((pdu) => pdu.command === 'submit_sm' && pdu.destinationAddr),
      ['66812000001', '66812000002'],
    );
  });

  it('never has more than windowSize submits in flight, and sends the waiters in order', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'hold' });
    const session = await openSession(t, smsc, { windowSize: 5 });
    const results = Array.from({ length: 23 }, (_, i) => session.submit(message(i)));
    await smsc.heldCount(5);
    assert.equal(session.inFlight, 5);
    assert.equal(session.waiting, 18);
    while (smsc.submitsReceived < 23) {
      smsc.releaseSubmits();
      await smsc.nextPdu((pdu) => pdu.command === 'submit_sm');
    }
    smsc.releaseSubmits();
    const answered = await Promise.all(results);
    assert.deepEqual(
      answered.map((result) => result.messageId),
      Array.from({ length: 23 }, (_, i) => `m${i}`),
    );
    assert.equal(smsc.maxInFlight, 5);
    assert.equal(session.inFlight, 0);
  });

  it('fails a submit with no answer in time with ResponseTimeoutError and frees its slot', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: (i) => (i === 0 ? 'hold' : 'answer') });
    // Long enough for the answered submits to be answered in time on a loaded machine.
    const session = await openSession(t, smsc, { windowSize: 1, responseTimeoutMs: 150 });
    const first = session.submit(message(1));
    const second = session.submit(message(2));
    await assert.rejects(first, (error: unknown) => {
      assert.ok(error instanceof ResponseTimeoutError);
      assert.equal(error.command, 'submit_sm');
      assert.equal(error.timeoutMs, 150);
      return true;
    });
    assert.deepEqual(await second, { commandStatus: 0, messageId: 'm1' });
    // The answer that comes too late is dropped and counted; the session carries on.
    smsc.releaseSubmits();
    assert.deepEqual(await session.submit(message(3)), { commandStatus: 0, messageId: 'm2' });
    assert.equal(session.lateResponses, 1);
    assert.equal(session.bound, true);
  });

  it('fails every pending submit and waiter with SessionClosedError when destroyed', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'hold' });
    const session = await openSession(t, smsc, { windowSize: 2 });
    const results = Array.from({ length: 5 }, (_, i) =>
      assert.rejects(session.submit(message(i)), SessionClosedError),
    );
    await smsc.heldCount(2);
    session.destroy();
    await Promise.all(results);
    assert.deepEqual(await session.closed, { reason: 'local-destroy' });
    await assert.rejects(session.submit(message(9)), SessionClosedError);
  });

  it('fails every pending submit with SessionClosedError when the SMSC drops the link', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'hold' });
    const session = await openSession(t, smsc, { windowSize: 2 });
    const results = Array.from({ length: 3 }, (_, i) =>
      assert.rejects(session.submit(message(i)), SessionClosedError),
    );
    await smsc.heldCount(2);
    smsc.dropConnections();
    await Promise.all(results);
    assert.equal((await session.closed).reason, 'socket-closed');
    assert.equal(session.bound, false);
  });

  it('refuses a short_message over 254 octets before it takes a slot', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc);
    await assert.rejects(
      session.submit({ ...message(1), shortMessage: Buffer.alloc(255) }),
      PduEncodeError,
    );
    assert.equal(session.inFlight, 0);
    assert.equal((await session.submit(message(2))).commandStatus, 0);
  });

  it('reads a generic_nack in answer to a submit as a refusal', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'ignore' });
    const session = await openSession(t, smsc);
    const result = session.submit(message(1));
    const submit = await smsc.nextPdu((pdu) => pdu.command === 'submit_sm');
    smsc.connection.send({
      command: 'generic_nack',
      commandStatus: CommandStatus.ESME_RTHROTTLED,
      sequenceNumber: submit.sequenceNumber,
    });
    assert.deepEqual(await result, { commandStatus: CommandStatus.ESME_RTHROTTLED, messageId: '' });
  });

  it('numbers requests from 1 up to 0x7FFFFFFF and then from 1 again', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc);
    Reflect.set(session, 'sequence', 0x7ffffffe);
    await session.submit(message(1));
    await session.submit(message(2));
    const numbers = smsc.connection.received.map((pdu) => pdu.sequenceNumber);
    assert.deepEqual(numbers, [1, 0x7fffffff, 1]);
  });
});
