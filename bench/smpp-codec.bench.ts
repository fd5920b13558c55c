// PDUs per second through Nok's SMPP codec and through the npm `smpp` package's (0.5.1), for
// 200,000 submit_sm and 200,000 deliver_sm receipts: encode each from a plain object, decode
// each from one stream of them. The figure behind docs/adr/0010-own-smpp-codec.md.
//
//   node --import tsx bench/smpp-codec.bench.ts
//
// Decoding with the package frames the stream by hand and calls its PDU constructor on each
// frame, which is what its Session does minus the stream.read() copies: the package's figure is
// a ceiling. The package also decodes short_message to text (data_coding 0 or 8) where ours hands
// out the octets; receipts are then parsed by receiptOf, which neither side is timed for.
import { cpus, loadavg } from 'node:os';
import smpp from 'smpp';
import { encodePdu } from '../src/carriers/smpp/encode-pdu.js';
import { type Pdu, TlvTag } from '../src/carriers/smpp/pdu.js';
import { PduReader } from '../src/carriers/smpp/pdu-reader.js';
import { shortMessageFields } from '../src/carriers/smpp/short-message-fields.js';
import { cStringTlv, integerTlv } from '../src/carriers/smpp/tlv.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { record } from './support/report.js';

const COUNT = 200_000;
const RUNS = 3;
const CHUNK_BYTES = 64 * 1024; // what a socket read hands over at most

type Kind = 'submit_sm' | 'deliver_sm';

interface Input {
  readonly ours: Pdu[];
  readonly theirs: Record<string, unknown>[];
}

function buildInput(kind: Kind): Input {
  const random = seededRandom(kind === 'submit_sm' ? 1 : 2);
  const ours: Pdu[] = [];
  const theirs: Record<string, unknown>[] = [];
  for (let i = 0; i < COUNT; i++) {
    const number = `668${String(Math.floor(random() * 1e8)).padStart(8, '0')}`;
    if (kind === 'submit_sm') {
      // Thai text as UCS-2, 20-70 characters: one part.
      const text = 'ก'.repeat(20 + Math.floor(random() * 50));
      const octets = Buffer.from(text, 'utf16le').swap16();
      const fields = { sourceAddr: 'NOKDEMO', destinationAddr: number, dataCoding: 8 };
      ours.push({
        command: 'submit_sm',
        commandStatus: 0,
        sequenceNumber: i + 1,
        ...shortMessageFields({
          ...fields,
          sourceAddrTon: 5,
          destAddrTon: 1,
          destAddrNpi: 1,
          registeredDelivery: 1,
          shortMessage: octets,
        }),
      });
      theirs.push({
        sequence_number: i + 1,
        source_addr_ton: 5,
        source_addr: 'NOKDEMO',
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: number,
        registered_delivery: 1,
        data_coding: 8,
        short_message: octets,
      });
    } else {
      const id = Math.floor(random() * 2 ** 32).toString(16);
      const octets = Buffer.from(
        `id:${id} sub:001 dlvrd:001 submit date:2611221200 done date:2611221201 stat:DELIVRD err:000 text:`,
      );
      ours.push({
        command: 'deliver_sm',
        commandStatus: 0,
        sequenceNumber: i + 1,
        ...shortMessageFields({
          sourceAddr: number,
          destinationAddr: 'NOKDEMO',
          esmClass: 0x04,
          dataCoding: 0,
          shortMessage: octets,
          tlvs: [
            cStringTlv(TlvTag.receipted_message_id, id),
            integerTlv(TlvTag.message_state, 2, 1),
          ],
        }),
      });
      theirs.push({
        sequence_number: i + 1,
        source_addr: number,
        destination_addr: 'NOKDEMO',
        esm_class: 0x04,
        data_coding: 0,
        short_message: octets,
        receipted_message_id: id,
        message_state: 2,
      });
    }
  }
  return { ours, theirs };
}

function encodeOurs(input: Input): Buffer[] {
  return input.ours.map(encodePdu);
}

function encodeTheirs(kind: Kind, input: Input): Buffer[] {
  return input.theirs.map((fields) => new smpp.PDU(kind, fields).toBuffer());
}

function chunks(stream: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < stream.length; at += CHUNK_BYTES)
    out.push(stream.subarray(at, at + CHUNK_BYTES));
  return out;
}

function decodeOurs(streamChunks: Buffer[]): number {
  const reader = new PduReader();
  let decoded = 0;
  for (const chunk of streamChunks) {
    reader.push(chunk);
    while (reader.next() !== null) decoded++;
  }
  return decoded;
}

function decodeTheirs(streamChunks: Buffer[]): number {
  let pending: Buffer = Buffer.alloc(0);
  let decoded = 0;
  for (const chunk of streamChunks) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    while (pending.length - at >= 4) {
      const length = pending.readUInt32BE(at);
      if (pending.length - at < length) break;
      new smpp.PDU(pending.subarray(at, at + length));
      decoded++;
      at += length;
    }
    pending = pending.subarray(at);
  }
  return decoded;
}

/** Best of RUNS, in PDUs per second. */
function rate(run: () => number): number {
  let best = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const count = run();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (count !== COUNT) throw new Error(`processed ${count} PDUs, expected ${COUNT}`);
    best = Math.max(best, count / seconds);
  }
  return best;
}

function main(): void {
  console.log(
    `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, ` +
      `one process, both codecs in turn; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `${COUNT} PDUs per run, best of ${RUNS}; decoding from ${CHUNK_BYTES / 1024} KiB chunks`,
  );
  for (const kind of ['submit_sm', 'deliver_sm'] as const) {
    const input = buildInput(kind);
    const stream = chunks(Buffer.concat(encodeOurs(input)));
    const figures: [string, number][] = [
      ['nok encode', rate(() => encodeOurs(input).length)],
      ['smpp@0.5.1 encode', rate(() => encodeTheirs(kind, input).length)],
      ['nok decode', rate(() => decodeOurs(stream))],
      ['smpp@0.5.1 decode', rate(() => decodeTheirs(stream))],
    ];
    for (const [who, value] of figures)
      record({ bench: 'smpp-codec', engine: '-', metric: `${kind} ${who}`, value, unit: 'PDUs/s' });
  }
}

main();
