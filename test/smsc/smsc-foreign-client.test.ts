// The simulator against an SMPP client we did not write: the npm `smpp` package (0.5.1).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { afterEach, describe, it } from 'node:test';
import smpp from 'smpp';
import { encodeMessageText } from '../../src/carriers/smpp/message-text.js';
import { CommandStatus } from '../../src/carriers/smpp/pdu.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';

type Command = 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver' | 'submit_sm';

function call(session: smpp.Session, command: Command, fields: smpp.PduFields): Promise<smpp.PDU> {
  return new Promise((resolve) => session[command](fields, resolve));
}

function shortMessageText(pdu: smpp.PDU): string {
  return (pdu.short_message as { message: string }).message;
}

describe('SMSC simulator with the npm smpp package as client', () => {
  let smsc: RunningSmsc | undefined;
  const sessions: smpp.Session[] = [];

  async function connect(): Promise<smpp.Session> {
    const session = smpp.connect({ host: '127.0.0.1', port: smsc!.port });
    session.on('error', () => undefined);
    sessions.push(session);
    await once(session, 'connect');
    return session;
  }

  /** Resolves with the next `count` deliver_sm, each acknowledged. */
  function receipts(session: smpp.Session, count: number): Promise<smpp.PDU[]> {
    const got: smpp.PDU[] = [];
    return new Promise((resolve) => {
      session.on('deliver_sm', (pdu: smpp.PDU) => {
        session.send(pdu.response());
        got.push(pdu);
        if (got.length === count) resolve(got);
      });
    });
  }

  afterEach(async () => {
    await Promise.all(
      sessions
        .splice(0)
        .map((s) =>
          s.socket.closed ? undefined : new Promise<void>((resolve) => s.destroy(() => resolve())),
        ),
    );
    await smsc?.close();
    smsc = undefined;
  });

  it('binds as transceiver, takes a Thai submit and sends a receipt it can read', async () => {
    smsc = await startSmsc({
      accounts: [{ systemId: 'pkg', password: 'secret' }],
      firstMessageId: 0xbeef,
      recordSubmits: true,
    });
    const session = await connect();
    const bind = await call(session, 'bind_transceiver', { system_id: 'pkg', password: 'secret' });
    assert.equal(bind.command_status, 0);
    assert.equal(bind.system_id, 'NOKSMSC');
    const receipt = receipts(session, 1);
    const response = await call(session, 'submit_sm', {
      source_addr: 'NOKDEMO',
      destination_addr: '66812345678',
      registered_delivery: 1,
      data_coding: 8,
      short_message: 'สวัสดีครับ',
    });
    assert.equal(response.command_status, 0);
    assert.equal(response.message_id, 'beef');
    const [deliver] = await receipt;
    assert.equal(deliver!.esm_class, 0x04);
    assert.equal(deliver!.receipted_message_id, 'beef');
    assert.equal(deliver!.message_state, 2);
    assert.match(
      shortMessageText(deliver!),
      /^id:beef sub:001 dlvrd:001 submit date:\d{10} done date:\d{10} stat:DELIVRD err:000 text:\?+$/,
    );
    assert.equal(smsc.stats.submits[0]!.text, 'สวัสดีครับ');
    assert.equal(smsc.stats.submits[0]!.dataCoding, 8);
  });

  it('sends the receipts of a transmitter bind to a receiver bind of the same system_id', async () => {
    smsc = await startSmsc({ messageIdFormat: 'decimal', firstMessageId: 500 });
    const transmitter = await connect();
    const receiver = await connect();
    assert.equal(
      (await call(transmitter, 'bind_transmitter', { system_id: 'nok', password: 'nok' }))
        .command_status,
      0,
    );
    assert.equal(
      (await call(receiver, 'bind_receiver', { system_id: 'nok', password: 'nok' })).command_status,
      0,
    );
    const receipt = receipts(receiver, 1);
    const response = await call(transmitter, 'submit_sm', {
      destination_addr: '66812345678',
      registered_delivery: 1,
      short_message: 'Hello',
    });
    assert.equal(response.message_id, '500');
    const [deliver] = await receipt;
    assert.equal(deliver!.receipted_message_id, '500');
    assert.match(shortMessageText(deliver!), / stat:DELIVRD err:000 text:Hello$/);
  });

  it('refuses a wrong password and an unknown system_id', async () => {
    smsc = await startSmsc();
    const session = await connect();
    assert.equal(
      (await call(session, 'bind_transceiver', { system_id: 'nok', password: 'nope' }))
        .command_status,
      CommandStatus.ESME_RINVPASWD,
    );
    assert.equal(
      (await call(session, 'bind_transceiver', { system_id: 'who', password: 'nok' }))
        .command_status,
      CommandStatus.ESME_RINVSYSID,
    );
  });

  it('takes the parts of a long message with their UDH and answers each', async () => {
    smsc = await startSmsc({ recordSubmits: true });
    const session = await connect();
    await call(session, 'bind_transceiver', { system_id: 'nok', password: 'nok' });
    const content = 'Nok ส่งข้อความยาว '.repeat(12);
    const encoded = encodeMessageText(content, 77);
    const responses = await Promise.all(
      encoded.parts.map((part) =>
        call(session, 'submit_sm', {
          destination_addr: '66812345678',
          esm_class: encoded.esmClass,
          data_coding: encoded.dataCoding,
          short_message: part,
        }),
      ),
    );
    assert.deepEqual(
      responses.map((r) => r.command_status),
      encoded.parts.map(() => 0),
    );
    assert.deepEqual(
      smsc.stats.submits.map((s) => s.udh),
      encoded.parts.map((_, i) => ({ reference: 77, total: encoded.parts.length, seq: i + 1 })),
    );
    assert.equal(smsc.stats.submits.map((s) => s.text).join(''), content);
    assert.equal(smsc.stats.messagesAccepted, 1);
  });

  it('answers enquire_link and unbind', async () => {
    smsc = await startSmsc();
    const session = await connect();
    await call(session, 'bind_transceiver', { system_id: 'nok', password: 'nok' });
    const link = await new Promise<smpp.PDU>((resolve) => session.enquire_link({}, resolve));
    assert.equal(link.command, 'enquire_link_resp');
    const closed = once(session, 'close');
    const unbind = await new Promise<smpp.PDU>((resolve) => session.unbind({}, resolve));
    assert.equal(unbind.command, 'unbind_resp');
    await closed;
  });
});
