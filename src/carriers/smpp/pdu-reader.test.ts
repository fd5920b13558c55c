import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../test/support/seeded-random.js';
import { decodePdu } from './decode-pdu.js';
import { encodePdu, encodePdus } from './encode-pdu.js';
import { CommandStatus, type DeliverSmPdu, type Pdu } from './pdu.js';
import { PduReader } from './pdu-reader.js';
import { shortMessageFields } from './short-message-fields.js';
import { PduDecodeError, PduFramingError } from './smpp-errors.js';

function hex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

function deliverSm(sequenceNumber: number, text: string): DeliverSmPdu {
  return {
    command: 'deliver_sm',
    commandStatus: 0,
    sequenceNumber,
    ...shortMessageFields({
      sourceAddr: '66812345678',
      destinationAddr: 'NOK',
      esmClass: 0x04,
      dataCoding: 0,
      shortMessage: Buffer.from(text),
    }),
  };
}

function drain(reader: PduReader): Pdu[] {
  const pdus: Pdu[] = [];
  for (let pdu = reader.next(); pdu !== null; pdu = reader.next()) pdus.push(pdu);
  return pdus;
}

const pdus: Pdu[] = Array.from({ length: 50 }, (_, i) =>
  i % 3 === 0
    ? { command: 'enquire_link', commandStatus: 0, sequenceNumber: i + 1 }
    : deliverSm(i + 1, `id:${i} stat:DELIVRD ${'x'.repeat(i)}`),
);
const stream = encodePdus(pdus);

describe('PduReader', () => {
  it('decodes a deliver_sm receipt written out byte by byte (SMPP 3.4 §4.6.1, TLVs §5.3)', () => {
    const reader = new PduReader();
    reader.push(
      hex(`
        0000004a 00000005 00000000 0000002a
        00
        01 01 363638313233343536373800
        05 00 4e4f4b00
        04 00 00
        00
        00
        00 00 00 00
        0d 69643a31413242207374617400
        001e 0005 3141324200
        0427 0001 02`),
    );
    const pdu = reader.next();
    assert.deepEqual(pdu, {
      command: 'deliver_sm',
      commandStatus: 0,
      sequenceNumber: 42,
      ...shortMessageFields({
        sourceAddrTon: 1,
        sourceAddrNpi: 1,
        sourceAddr: '66812345678',
        destAddrTon: 5,
        destinationAddr: 'NOK',
        esmClass: 0x04,
        dataCoding: 0,
        shortMessage: Buffer.from('id:1A2B stat\0'),
        tlvs: [
          { tag: 0x001e, value: Buffer.from('1A2B\0') },
          { tag: 0x0427, value: Buffer.from([2]) },
        ],
      }),
    });
    assert.equal(reader.next(), null);
    assert.equal(reader.bufferedBytes, 0);
  });

  it('hands out many PDUs that arrive in one chunk, one per call', () => {
    const reader = new PduReader();
    reader.push(stream);
    assert.deepEqual(reader.next(), pdus[0]);
    assert.deepEqual(drain(reader), pdus.slice(1));
    assert.equal(reader.bufferedBytes, 0);
  });

  it('joins PDUs split across chunks at every possible cut, down to one byte per chunk', () => {
    const byteByByte = new PduReader();
    const seen: Pdu[] = [];
    for (let i = 0; i < stream.length; i++) {
      byteByByte.push(stream.subarray(i, i + 1));
      seen.push(...drain(byteByByte));
    }
    assert.deepEqual(seen, pdus);

    const first = encodePdu(pdus[1] as Pdu);
    for (let cut = 1; cut < first.length; cut++) {
      const reader = new PduReader();
      reader.push(first.subarray(0, cut));
      assert.equal(reader.next(), null, `cut at ${cut}`);
      reader.push(first.subarray(cut));
      assert.deepEqual(drain(reader), [pdus[1]], `cut at ${cut}`);
    }
  });

  it('reads chunks of random sizes into the same PDUs', () => {
    const random = seededRandom(7);
    const reader = new PduReader();
    const seen: Pdu[] = [];
    for (let at = 0; at < stream.length;) {
      const size = 1 + Math.floor(random() * 200);
      reader.push(stream.subarray(at, at + size));
      at += size;
      seen.push(...drain(reader));
    }
    assert.deepEqual(seen, pdus);
  });

  it('refuses a command_length below 16 or above the maximum, for good', () => {
    const short = new PduReader();
    short.push(hex('0000000f 00000015 00000000 00000001'));
    assert.throws(() => short.next(), PduFramingError);
    assert.throws(() => short.next(), PduFramingError);

    const long = new PduReader({ maxCommandLength: 1024 });
    long.push(hex('00000401 00000004')); // judged as soon as the length is in
    assert.throws(
      () => long.next(),
      (error: unknown) => {
        assert.ok(error instanceof PduFramingError);
        assert.equal(error.commandLength, 1025);
        return true;
      },
    );
    assert.throws(() => decodePdu(hex('00')), PduFramingError);
  });

  it('skips a framed PDU whose body is broken, with the status to answer, and reads on', () => {
    const reader = new PduReader();
    const tooLongSource = encodePdu(deliverSm(5, 'hi'));
    tooLongSource.fill(0x31, 19, 19 + 22); // source_addr: 22 digits and no NUL where it must end
    const truncated = encodePdu(deliverSm(6, 'hello'));
    truncated.writeUInt32BE(truncated.length - 3, 0); // sm_length now runs past the end
    reader.push(Buffer.concat([tooLongSource, truncated.subarray(0, truncated.length - 3)]));
    reader.push(encodePdu(pdus[0] as Pdu));

    assert.throws(
      () => reader.next(),
      (error: unknown) =>
        error instanceof PduDecodeError &&
        error.sequenceNumber === 5 &&
        error.commandStatus === CommandStatus.ESME_RINVSRCADR,
    );
    assert.throws(
      () => reader.next(),
      (error: unknown) =>
        error instanceof PduDecodeError && error.commandStatus === CommandStatus.ESME_RINVMSGLEN,
    );
    assert.deepEqual(reader.next(), pdus[0]);
  });

  it('decodes an unknown command_id as a generic PDU, and reads error responses without a body', () => {
    const reader = new PduReader();
    reader.push(hex('00000014 00000103 00000000 00000009 01020304'));
    reader.push(hex('00000010 80000009 0000000e 00000001'));
    reader.push(hex('00000011 80000004 00000058 00000002 00'));
    assert.deepEqual(drain(reader), [
      {
        command: 'unknown',
        commandId: 0x103,
        commandStatus: 0,
        sequenceNumber: 9,
        body: hex('01020304'),
      },
      {
        command: 'bind_transceiver_resp',
        commandStatus: 0x0e,
        sequenceNumber: 1,
        systemId: '',
        tlvs: [],
      },
      { command: 'submit_sm_resp', commandStatus: 0x58, sequenceNumber: 2, messageId: '' },
    ]);
  });

  it('never fails on random or corrupted bytes with anything but its typed errors', () => {
    const random = seededRandom(2026);
    const valid = encodePdus(pdus);
    const seen = { framing: 0, decode: 0 };
    for (let round = 0; round < 2000; round++) {
      const input =
        round % 2 === 0
          ? Buffer.from(
              Array.from({ length: 1 + Math.floor(random() * 300) }, () => random() * 256),
            )
          : corrupt(valid, random);
      const reader = new PduReader();
      for (let at = 0; at < input.length;) {
        const size = 1 + Math.floor(random() * 64);
        reader.push(input.subarray(at, at + size));
        at += size;
        try {
          seen.decode += drainSkippingBadBodies(reader);
        } catch (error) {
          assert.ok(error instanceof PduFramingError, `round ${round}: ${String(error)}`);
          seen.framing++;
          break;
        }
      }
    }
    // Both kinds of garbage were met, not only impossible lengths.
    assert.ok(seen.framing > 100 && seen.decode > 100, JSON.stringify(seen));
  });
});

// Keeps command_length plausible now and then so that bodies, not just lengths, get mangled.
function corrupt(valid: Buffer, random: () => number): Buffer {
  const copy = Buffer.from(valid);
  for (let i = 0; i < 1 + random() * 20; i++)
    copy[Math.floor(random() * copy.length)] = random() * 256;
  return copy;
}

/** Reads all it can; returns how many PDUs it skipped for a broken body. */
function drainSkippingBadBodies(reader: PduReader): number {
  let skipped = 0;
  for (;;) {
    try {
      if (reader.next() === null) return skipped;
    } catch (error) {
      if (!(error instanceof PduDecodeError)) throw error;
      skipped++;
    }
  }
}
