import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReceiptText } from './parse-receipt-text.js';
import { type DeliverSmPdu, MessageState, type Tlv, TlvTag } from './pdu.js';
import { messageStateOf, receiptOf, receiptedMessageIdOf } from './receipt-of.js';
import { shortMessageFields } from './short-message-fields.js';
import { cStringTlv, integerTlv } from './tlv.js';

function deliverSm(esmClass: number, text: string, tlvs: Tlv[] = []): DeliverSmPdu {
  return {
    command: 'deliver_sm',
    commandStatus: 0,
    sequenceNumber: 1,
    ...shortMessageFields({
      sourceAddr: '66812345678',
      destinationAddr: 'NOK',
      esmClass,
      dataCoding: 0,
      shortMessage: Buffer.from(text, 'latin1'),
      tlvs,
    }),
  };
}

const appendixB =
  'id:0123456789 sub:001 dlvrd:001 submit date:2611221200 done date:2611221201 ' +
  'stat:DELIVRD err:000 text:Hello from Nok';

describe('parseReceiptText', () => {
  it('reads every field of the SMPP 3.4 Appendix B format', () => {
    assert.deepEqual(parseReceiptText(Buffer.from(appendixB)), {
      id: '0123456789',
      stat: 'DELIVRD',
      statText: 'DELIVRD',
      sub: '001',
      dlvrd: '001',
      submitDate: '2611221200',
      doneDate: '2611221201',
      err: '000',
      text: 'Hello from Nok',
    });
  });

  it('takes keys in any case, hex ids, missing fields and spelled-out states', () => {
    const receipt = parseReceiptText('ID:7f3a9c01 Sub:1 Stat:undeliverable ERR:0B1');
    assert.equal(receipt?.id, '7f3a9c01');
    assert.equal(receipt?.stat, 'UNDELIV');
    assert.equal(receipt?.statText, 'undeliverable');
    assert.equal(receipt?.err, '0B1');
    assert.equal(receipt?.doneDate, undefined);
    assert.equal(receipt?.text, undefined);
    assert.equal(
      parseReceiptText('id:1 done_date:2611221201 stat:EXPIRED')?.doneDate,
      '2611221201',
    );
    for (const [written, stat] of [
      ['DELIVERED', 'DELIVRD'],
      ['expired', 'EXPIRED'],
      ['DELETED', 'DELETED'],
      ['ACCEPTED', 'ACCEPTD'],
      ['UNKNOWN', 'UNKNOWN'],
      ['REJECTD', 'REJECTD'],
      ['ENROUTE', 'ENROUTE'],
      ['SOMETHING', 'UNKNOWN'],
    ] as const)
      assert.equal(parseReceiptText(`id:9 stat:${written}`)?.stat, stat, written);
  });

  it('keeps key-like words inside text as text', () => {
    const receipt = parseReceiptText('id:5 stat:DELIVRD text:your id: 42 stat: fine');
    assert.equal(receipt?.id, '5');
    assert.equal(receipt?.stat, 'DELIVRD');
    assert.equal(receipt?.text, 'your id: 42 stat: fine');
  });

  it('is null without an id or a stat', () => {
    assert.equal(parseReceiptText('Hello, how are you?'), null);
    assert.equal(parseReceiptText('id:12 err:000'), null);
    assert.equal(parseReceiptText('stat:DELIVRD'), null);
    assert.equal(parseReceiptText(''), null);
  });
});

describe('receiptOf', () => {
  it('prefers receipted_message_id and message_state to the text', () => {
    const pdu = deliverSm(0x04, 'id:111 stat:UNDELIV', [
      cStringTlv(TlvTag.receipted_message_id, '6f'),
      integerTlv(TlvTag.message_state, MessageState.DELIVERED, 1),
      { tag: TlvTag.network_error_code, value: Buffer.from([1, 0x00, 0x22]) },
    ]);
    assert.equal(receiptedMessageIdOf(pdu), '6f');
    assert.equal(messageStateOf(pdu), MessageState.DELIVERED);
    const receipt = receiptOf(pdu);
    assert.equal(receipt?.messageId, '6f');
    assert.equal(receipt?.stat, 'DELIVRD');
    assert.equal(receipt?.intermediate, false);
    assert.deepEqual(receipt?.networkError, { networkType: 1, errorCode: 0x22 });
    assert.equal(receipt?.text?.id, '111');
  });

  it('falls back to the text when the TLVs are absent', () => {
    const receipt = receiptOf(deliverSm(0x04, appendixB));
    assert.equal(receipt?.messageId, '0123456789');
    assert.equal(receipt?.stat, 'DELIVRD');
    assert.equal(receipt?.networkError, undefined);
  });

  it('mixes a TLV id with the text stat, and reads an id TLV that lacks its NUL', () => {
    const receipt = receiptOf(
      deliverSm(0x04, 'id:1 stat:EXPIRED', [
        { tag: TlvTag.receipted_message_id, value: Buffer.from('abc') },
      ]),
    );
    assert.equal(receipt?.messageId, 'abc');
    assert.equal(receipt?.stat, 'EXPIRED');
  });

  it('reads esm_class bits 5-2 only, and marks intermediate notifications', () => {
    // 0x44: a receipt with the UDHI bit (6) set; 0x20: an intermediate notification.
    assert.equal(receiptOf(deliverSm(0x44, appendixB))?.stat, 'DELIVRD');
    assert.equal(receiptOf(deliverSm(0x20, 'id:9 stat:ENROUTE'))?.intermediate, true);
  });

  it('is null for a message that is not a receipt, even one whose text looks like one', () => {
    assert.equal(receiptOf(deliverSm(0x00, appendixB)), null);
    assert.equal(receiptOf(deliverSm(0x08, appendixB)), null); // SME delivery acknowledgement
    assert.equal(receiptOf(deliverSm(0x04, 'no receipt here')), null);
  });
});
