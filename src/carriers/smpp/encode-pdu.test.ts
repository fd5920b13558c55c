import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePdu } from './decode-pdu.js';
import { encodePdu, encodePdus, encodedLength, writePdu } from './encode-pdu.js';
import { CommandStatus, MessageState, type Pdu, TlvTag } from './pdu.js';
import { shortMessageFields } from './short-message-fields.js';
import { PduEncodeError } from './smpp-errors.js';
import { cStringTlv, integerTlv } from './tlv.js';

/** Hex with spaces and line breaks for reading, as the PDUs are laid out in SMPP 3.4 §4. */
function hex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

const submitSm: Pdu = {
  command: 'submit_sm',
  commandStatus: 0,
  sequenceNumber: 2,
  ...shortMessageFields({
    sourceAddrTon: 5,
    sourceAddr: 'NOKDEMO',
    destAddrTon: 1,
    destAddrNpi: 1,
    destinationAddr: '66812345678',
    registeredDelivery: 1,
    dataCoding: 8,
    shortMessage: Buffer.from('0e2a0e27', 'hex'), // "สว" in UCS-2
  }),
};

// One PDU of every command the codec speaks, for round trips.
const everyPdu: Pdu[] = [
  ...(['bind_transmitter', 'bind_receiver', 'bind_transceiver'] as const).map(
    (command, i): Pdu => ({
      command,
      commandStatus: 0,
      sequenceNumber: i + 1,
      systemId: 'nok',
      password: 'secret',
      systemType: 'SMS',
      interfaceVersion: 0x34,
      addrTon: 1,
      addrNpi: 1,
      addressRange: '^66',
    }),
  ),
  ...(['bind_transmitter_resp', 'bind_receiver_resp', 'bind_transceiver_resp'] as const).map(
    (command, i): Pdu => ({
      command,
      commandStatus: 0,
      sequenceNumber: i + 1,
      systemId: 'SMSC',
      tlvs: [integerTlv(TlvTag.sc_interface_version, 0x34, 1)],
    }),
  ),
  submitSm,
  { command: 'submit_sm_resp', commandStatus: 0, sequenceNumber: 2, messageId: '0A1B2C3D' },
  {
    command: 'deliver_sm',
    commandStatus: 0,
    sequenceNumber: 7,
    ...shortMessageFields({
      sourceAddr: '66812345678',
      destinationAddr: 'NOKDEMO',
      esmClass: 0x04,
      dataCoding: 0,
      shortMessage: Buffer.from('id:0A1B2C3D stat:DELIVRD err:000'),
      tlvs: [
        cStringTlv(TlvTag.receipted_message_id, '0A1B2C3D'),
        integerTlv(TlvTag.message_state, MessageState.DELIVERED, 1),
      ],
    }),
  },
  { command: 'deliver_sm_resp', commandStatus: 0, sequenceNumber: 7, messageId: '' },
  { command: 'enquire_link', commandStatus: 0, sequenceNumber: 9 },
  { command: 'enquire_link_resp', commandStatus: 0, sequenceNumber: 9 },
  { command: 'unbind', commandStatus: 0, sequenceNumber: 10 },
  { command: 'unbind_resp', commandStatus: 0, sequenceNumber: 10 },
  { command: 'generic_nack', commandStatus: CommandStatus.ESME_RINVCMDID, sequenceNumber: 11 },
  {
    command: 'unknown',
    commandId: 0x00000103, // data_sm, which the codec leaves undecoded
    commandStatus: 0,
    sequenceNumber: 12,
    body: Buffer.from('00010100', 'hex'),
  },
];

describe('encodePdu', () => {
  it('writes a bind_transceiver byte for byte as SMPP 3.4 §4.1.5 lays it out', () => {
    const encoded = encodePdu({
      command: 'bind_transceiver',
      commandStatus: 0,
      sequenceNumber: 1,
      systemId: 'SMPP3TEST',
      password: 'secret08',
      systemType: 'SUBMIT1',
      interfaceVersion: 0x34,
      addrTon: 1,
      addrNpi: 1,
      addressRange: '',
    });
    const expected = hex(`
      0000002f 00000009 00000000 00000001
      534d5050 33544553 5400
      73656372 65743038 00
      5355424d 49543100
      34 01 01
      00`);
    assert.deepEqual(encoded, expected);
  });

  it('writes a submit_sm byte for byte as SMPP 3.4 §4.4.1 lays it out', () => {
    const expected = hex(`
      00000037 00000004 00000000 00000002
      00
      05 00 4e4f4b44454d4f00
      01 01 363638313233343536373800
      00 00 00
      00
      00
      01 00 08 00
      04 0e2a0e27`);
    assert.deepEqual(encodePdu(submitSm), expected);
    assert.equal(encodedLength(submitSm), expected.length);
  });

  it('writes a submit_sm_resp with its message_id, and without a body on an error', () => {
    assert.deepEqual(
      encodePdu({
        command: 'submit_sm_resp',
        commandStatus: 0,
        sequenceNumber: 2,
        messageId: 'ab12',
      }),
      hex('00000015 80000004 00000000 00000002 61623132 00'),
    );
    assert.deepEqual(
      encodePdu({
        command: 'submit_sm_resp',
        commandStatus: CommandStatus.ESME_RTHROTTLED,
        sequenceNumber: 3,
        messageId: 'ignored',
      }),
      hex('00000010 80000004 00000058 00000003'),
    );
  });

  it('writes TLVs after the mandatory fields as tag, length, value', () => {
    const encoded = encodePdu({
      command: 'bind_transceiver_resp',
      commandStatus: 0,
      sequenceNumber: 1,
      systemId: 'SMSC',
      tlvs: [integerTlv(TlvTag.sc_interface_version, 0x34, 1)],
    });
    assert.deepEqual(encoded, hex('0000001a 80000009 00000000 00000001 534d534300 0210 0001 34'));
  });

  it('decodes back every PDU it encodes', () => {
    for (const pdu of everyPdu) assert.deepEqual(decodePdu(encodePdu(pdu)), pdu, pdu.command);
  });

  it('puts many PDUs back to back in one buffer, or at an offset of a given one', () => {
    const joined = encodePdus(everyPdu);
    assert.deepEqual(joined, Buffer.concat(everyPdu.map(encodePdu)));
    const target = Buffer.alloc(joined.length + 10);
    let at = 10;
    for (const pdu of everyPdu) at = writePdu(pdu, target, at);
    assert.equal(at, target.length);
    assert.deepEqual(target.subarray(10), joined);
    assert.throws(() => writePdu(submitSm, Buffer.alloc(20), 0), PduEncodeError);
  });

  it('refuses fields longer than SMPP 3.4 allows instead of sending them cut', () => {
    const tooLong = { ...submitSm, shortMessage: Buffer.alloc(255) };
    assert.throws(() => encodePdu(tooLong), PduEncodeError);
    assert.doesNotThrow(() => encodePdu({ ...submitSm, shortMessage: Buffer.alloc(254) }));
    assert.throws(
      () => encodePdu({ ...submitSm, destinationAddr: '1'.repeat(21) }),
      PduEncodeError,
    );
    assert.doesNotThrow(() => encodePdu({ ...submitSm, destinationAddr: '1'.repeat(20) }));
    assert.throws(() => encodePdu({ ...submitSm, sourceAddr: 'นก' }), PduEncodeError);
    assert.throws(
      () =>
        encodePdu({
          ...submitSm,
          tlvs: [{ tag: TlvTag.message_payload, value: Buffer.alloc(65536) }],
        }),
      PduEncodeError,
    );
  });
});
