import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommandStatus, type DeliverSmPdu, TlvTag } from '../../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../../src/carriers/smpp/receipt-of.js';
import { shortMessageFields } from '../../../src/carriers/smpp/short-message-fields.js';
import { cStringTlv, integerTlv } from '../../../src/carriers/smpp/tlv.js';
import { message, openSession, startSmsc } from './session-fixture.js';

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
      tlvs: [
        cStringTlv(TlvTag.receipted_message_id, messageId),
        integerTlv(TlvTag.message_state, 2, 1),
      ],
    }),
  };
}

/** A deliver handler whose answers the test gives by hand. */
function handHandler() {
  const calls: { pdu: DeliverSmPdu; settle: (status: number) => void; fail: () => void }[] = [];
  let called: (() => void) | null = null;
  return {
    calls,
    onDeliver: (pdu: DeliverSmPdu) =>
      new Promise<number>((settle, reject) => {
        calls.push({ pdu, settle, fail: () => reject(new Error('store failed')) });
        called?.();
      }),
    async callCount(count: number): Promise<void> {
      while (calls.length < count) await new Promise<void>((resolve) => (called = resolve));
    },
  };
}

describe('SMPP session: deliver_sm', () => {
  it('sends deliver_sm_resp only once the handler resolves, with its status', async (t) => {
    const smsc = await startSmsc(t);
    const handler = handHandler();
    await openSession(t, smsc, { onDeliver: handler.onDeliver });
    smsc.connection.send(receipt(31, 'abc'));
    await handler.callCount(1);
    assert.equal(receiptOf(handler.calls[0]!.pdu)?.messageId, 'abc');

    // The session has read and answered a later PDU, and still owes the deliver_sm_resp.
    const later = smsc.nextPdu((pdu) => pdu.command === 'enquire_link_resp');
    smsc.connection.send({ command: 'enquire_link', commandStatus: 0, sequenceNumber: 32 });
    await later;
    assert.equal(smsc.connection.received.filter((p) => p.command === 'deliver_sm_resp').length, 0);

    const answer = smsc.nextPdu((pdu) => pdu.command === 'deliver_sm_resp');
    handler.calls[0]!.settle(CommandStatus.ESME_RX_T_APPN);
    assert.deepEqual(await answer, {
      command: 'deliver_sm_resp',
      commandStatus: CommandStatus.ESME_RX_T_APPN,
      sequenceNumber: 31,
      messageId: '',
    });
  });

  it('answers ESME_RSYSERR when the handler fails, so that the SMSC delivers again', async (t) => {
    const smsc = await startSmsc(t);
    const handler = handHandler();
    await openSession(t, smsc, { onDeliver: handler.onDeliver });
    const answer = smsc.nextPdu((pdu) => pdu.command === 'deliver_sm_resp');
    smsc.connection.send(receipt(40, 'x'));
    await handler.callCount(1);
    handler.calls[0]!.fail();
    assert.equal((await answer).commandStatus, CommandStatus.ESME_RSYSERR);

    const throwing = await startSmsc(t);
    await openSession(t, throwing, {
      onDeliver: () => {
        throw new Error('no store');
      },
    });
    const thrown = throwing.nextPdu((pdu) => pdu.command === 'deliver_sm_resp');
    throwing.connection.send(receipt(41, 'y'));
    assert.equal((await thrown).commandStatus, CommandStatus.ESME_RSYSERR);
  });

  it('hands deliveries to the handler in arrival order', async (t) => {
    const smsc = await startSmsc(t);
    const handler = handHandler();
    await openSession(t, smsc, { onDeliver: handler.onDeliver, maxPdusPerTurn: 3 });
    for (let i = 1; i <= 20; i++) smsc.connection.send(receipt(i, `id${i}`));
    await handler.callCount(20);
    assert.deepEqual(
      handler.calls.map((call) => call.pdu.sequenceNumber),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const call of handler.calls.reverse()) call.settle(0);
  });

  it('hands over a receipt that arrives before the submit_sm_resp of its message', async (t) => {
    const smsc = await startSmsc(t, {
      beforeSubmitResp: (connection, _index, messageId) =>
        connection.send(receipt(connection.nextSequence(), messageId)),
    });
    const order: string[] = [];
    const session = await openSession(t, smsc, {
      onDeliver: (pdu) => {
        order.push(`receipt ${receiptOf(pdu)?.messageId}`);
        return 0;
      },
    });
    const result = await session.submit(message(1));
    order.push(`submit ${result.messageId}`);
    assert.deepEqual(order, ['receipt m0', 'submit m0']);
  });
});
