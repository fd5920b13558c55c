// Our codec against one we did not write: the npm `smpp` package must read what we write, and we
// must read what it writes, field for field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import smpp from 'smpp';
import { decodePdu } from '../../../src/carriers/smpp/decode-pdu.js';
import { encodePdu } from '../../../src/carriers/smpp/encode-pdu.js';
import { MessageState, type Pdu, TlvTag } from '../../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../../src/carriers/smpp/receipt-of.js';
import { shortMessageFields } from '../../../src/carriers/smpp/short-message-fields.js';
import { cStringTlv, integerTlv } from '../../../src/carriers/smpp/tlv.js';

const ucs2 = Buffer.from('0e2a0e270e310e2a0e140e35', 'hex'); // "สวัสดี" in UCS-2

describe('SMPP codec interop with the npm smpp package', () => {
  it('writes a submit_sm that the package reads field for field', () => {
    const ours: Pdu = {
      command: 'submit_sm',
      commandStatus: 0,
      sequenceNumber: 42,
      ...shortMessageFields({
        sourceAddrTon: 5,
        sourceAddr: 'NOKDEMO',
        destAddrTon: 1,
        destAddrNpi: 1,
        destinationAddr: '66812345678',
        registeredDelivery: 1,
        dataCoding: 8,
        shortMessage: ucs2,
      }),
    };
    const theirs = new smpp.PDU(encodePdu(ours));
    assert.equal(theirs.command, 'submit_sm');
    assert.equal(theirs.sequence_number, 42);
    assert.equal(theirs.source_addr_ton, 5);
    assert.equal(theirs.source_addr, 'NOKDEMO');
    assert.equal(theirs.dest_addr_ton, 1);
    assert.equal(theirs.destination_addr, '66812345678');
    assert.equal(theirs.registered_delivery, 1);
    assert.equal(theirs.data_coding, 8);
    assert.deepEqual(theirs.short_message, { message: 'สวัสดี' });
  });

  it('reads a deliver_sm receipt and a bind that the package writes', () => {
    const receipt = new smpp.PDU('deliver_sm', {
      sequence_number: 7,
      source_addr: '66812345678',
      destination_addr: 'NOKDEMO',
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.from('id:0A1B sub:001 dlvrd:001 stat:DELIVRD err:000'),
      receipted_message_id: '0A1B',
      message_state: MessageState.DELIVERED,
    }).toBuffer();
    const ours = decodePdu(receipt);
    assert.equal(ours.command, 'deliver_sm');
    if (ours.command !== 'deliver_sm') return;
    assert.equal(ours.sequenceNumber, 7);
    assert.equal(ours.destinationAddr, 'NOKDEMO');
    assert.deepEqual(receiptOf(ours), {
      messageId: '0A1B',
      stat: 'DELIVRD',
      intermediate: false,
      networkError: undefined,
      text: {
        id: '0A1B',
        stat: 'DELIVRD',
        statText: 'DELIVRD',
        sub: '001',
        dlvrd: '001',
        submitDate: undefined,
        doneDate: undefined,
        err: '000',
        text: undefined,
      },
    });
    assert.deepEqual(
      ours.tlvs.map((tlv) => tlv.tag).sort(),
      [TlvTag.receipted_message_id, TlvTag.message_state].sort(),
    );

    const bind = new smpp.PDU('bind_transceiver', {
      sequence_number: 1,
      system_id: 'nok',
      password: 'secret',
      interface_version: 0x34,
    }).toBuffer();
    assert.deepEqual(decodePdu(bind), {
      command: 'bind_transceiver',
      commandStatus: 0,
      sequenceNumber: 1,
      systemId: 'nok',
      password: 'secret',
      systemType: '',
      interfaceVersion: 0x34,
      addrTon: 0,
      addrNpi: 0,
      addressRange: '',
    });
  });

  it('writes TLVs the package reads by name', () => {
    const ours = encodePdu({
      command: 'deliver_sm',
      commandStatus: 0,
      sequenceNumber: 3,
      ...shortMessageFields({
        sourceAddr: '66812345678',
        destinationAddr: 'NOK',
        esmClass: 0x04,
        dataCoding: 0,
        shortMessage: Buffer.from('id:9 stat:UNDELIV'),
        tlvs: [
          cStringTlv(TlvTag.receipted_message_id, '9'),
          integerTlv(TlvTag.message_state, MessageState.UNDELIVERABLE, 1),
        ],
      }),
    });
    const theirs = new smpp.PDU(ours);
    assert.equal(theirs.receipted_message_id, '9');
    assert.equal(theirs.message_state, MessageState.UNDELIVERABLE);
  });
});
