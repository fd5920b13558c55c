import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommandStatus } from '../../../src/carriers/smpp/pdu.js';
import { SessionClosedError } from '../../../src/carriers/smpp/smpp-errors.js';
import { message, openSession, startSmsc } from './session-fixture.js';

describe('SMPP session: link upkeep and closing', () => {
  it('answers the SMSC enquire_link with enquire_link_resp', async (t) => {
    const smsc = await startSmsc(t);
    await openSession(t, smsc);
    const answer = smsc.nextPdu((pdu) => pdu.command === 'enquire_link_resp');
    smsc.connection.send({ command: 'enquire_link', commandStatus: 0, sequenceNumber: 77 });
    assert.deepEqual(await answer, {
      command: 'enquire_link_resp',
      commandStatus: 0,
      sequenceNumber: 77,
    });
  });

  it('sends enquire_link when the link is quiet, and stays bound when it is answered', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc, { enquireLinkIntervalMs: 20 });
    await smsc.nextPdu((pdu) => pdu.command === 'enquire_link');
    await smsc.nextPdu((pdu) => pdu.command === 'enquire_link');
    assert.equal(session.bound, true);
  });

  it('closes a quiet session whose SMSC does not answer enquire_link', async (t) => {
    const smsc = await startSmsc(t, { answerEnquireLink: false });
    const session = await openSession(t, smsc, {
      enquireLinkIntervalMs: 20,
      responseTimeoutMs: 30,
    });
    const closed = await session.closed;
    assert.equal(closed.reason, 'enquire-link-timeout');
    assert.equal(session.bound, false);
  });

  it('unbinds gracefully: refuses new submits, lets in-flight ones finish, then unbinds', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'hold' });
    const session = await openSession(t, smsc, { windowSize: 1 });
    const inFlight = session.submit(message(1));
    const waiting = assert.rejects(session.submit(message(2)), SessionClosedError);
    await smsc.heldCount(1);
    const unbinding = session.unbind(1_000);
    await waiting;
    await assert.rejects(session.submit(message(3)), SessionClosedError);
    smsc.releaseSubmits();
    assert.equal((await inFlight).commandStatus, 0);
    await unbinding;
    assert.equal((await session.closed).reason, 'local-unbind');
    const commands = smsc.connection.received.map((pdu) => pdu.command);
    assert.deepEqual(commands, ['bind_transceiver', 'submit_sm', 'unbind']);
  });

  it('unbinds within its timeout even when in-flight submits are never answered', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'ignore' });
    const session = await openSession(t, smsc);
    const inFlight = assert.rejects(session.submit(message(1)), SessionClosedError);
    await smsc.nextPdu((pdu) => pdu.command === 'submit_sm');
    await session.unbind(30);
    await inFlight;
    assert.equal((await session.closed).reason, 'local-unbind');
  });

  it('answers the SMSC unbind, closes, and fails what was in flight', async (t) => {
    const smsc = await startSmsc(t, { onSubmit: () => 'hold' });
    const session = await openSession(t, smsc);
    const inFlight = assert.rejects(session.submit(message(1)), SessionClosedError);
    await smsc.heldCount(1);
    const answer = smsc.nextPdu((pdu) => pdu.command === 'unbind_resp');
    smsc.connection.send({ command: 'unbind', commandStatus: 0, sequenceNumber: 5 });
    assert.equal((await answer).sequenceNumber, 5);
    await inFlight;
    assert.equal((await session.closed).reason, 'remote-unbind');
  });

  it('answers an unknown command with generic_nack ESME_RINVCMDID and stays bound', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc);
    const nack = smsc.nextPdu((pdu) => pdu.command === 'generic_nack');
    smsc.connection.send({
      command: 'unknown',
      commandId: 0x00000103,
      commandStatus: 0,
      sequenceNumber: 8,
      body: Buffer.alloc(0),
    });
    assert.deepEqual(await nack, {
      command: 'generic_nack',
      commandStatus: CommandStatus.ESME_RINVCMDID,
      sequenceNumber: 8,
    });
    assert.equal(session.bound, true);
  });

  it('answers a command_length it cannot frame with generic_nack and closes', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc);
    const nack = smsc.nextPdu((pdu) => pdu.command === 'generic_nack');
    smsc.connection.sendRaw(Buffer.from('0000000800000015', 'hex'));
    assert.equal((await nack).commandStatus, CommandStatus.ESME_RINVCMDLEN);
    assert.equal((await session.closed).reason, 'protocol-error');
  });
});
