// Throughput of the built-in SMSC simulator, which shares the machine with Nok in the end-to-end
// benchmarks (target 6,000-9,000 messages/s): how fast it answers submit_sm and delivers receipts
// to a windowed client on our codec, and the CPU time it spends per 1,000 submits doing so.
//
//   node --import tsx bench/smsc-throughput.bench.ts
//   NOK_BENCH_SMSC_OPTIONS='{"preset":"demo"}' node --import tsx bench/smsc-throughput.bench.ts
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { encodeMessageText } from '../src/carriers/smpp/message-text.js';
import { encodePdus } from '../src/carriers/smpp/encode-pdu.js';
import type { Pdu } from '../src/carriers/smpp/pdu.js';
import { PduReader } from '../src/carriers/smpp/pdu-reader.js';
import { shortMessageFields } from '../src/carriers/smpp/short-message-fields.js';
import { machineCaveat, record } from './support/report.js';
import type { SmscChildMessage } from './support/smsc-server.js';

const SUBMITS = Number(process.env.NOK_BENCH_SMSC_SUBMITS ?? 200_000);
const BINDS = 4;
const WINDOW = 100;
const BENCH = 'smsc-throughput';
const CHILD = fileURLToPath(new URL('./support/smsc-server.ts', import.meta.url));

const text = encodeMessageText('สวัสดีครับ ยินดีต้อนรับสู่ Nok '.repeat(3).slice(0, 70), 0);

function message(child: ChildProcess): Promise<SmscChildMessage> {
  return new Promise((resolve) => child.once('message', resolve));
}

let receiptsDone = 0;
let finish: () => void = () => {};
const allReceipts = new Promise<void>((resolve) => (finish = resolve));
const sockets: Socket[] = [];

/**
 * One transceiver bind that keeps WINDOW submits in flight and acknowledges every receipt; the
 * SMSC spreads receipts over all binds of the system_id, so they are counted across binds.
 */
function runBind(port: number, quota: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    const reader = new PduReader();
    let sequence = 1;
    let sent = 0;
    let answered = 0;
    let out: Pdu[] = [];
    const queue = (pdu: Pdu) => {
      if (out.length === 0)
        process.nextTick(() => {
          socket.write(encodePdus(out));
          out = [];
        });
      out.push(pdu);
    };
    const submitNext = () => {
      const n = sent++;
      queue({
        command: 'submit_sm',
        commandStatus: 0,
        sequenceNumber: ++sequence,
        ...shortMessageFields({
          sourceAddr: 'NOK',
          destinationAddr: String(66_800_000_000 + (n % 100_000)),
          dataCoding: text.dataCoding,
          registeredDelivery: 1,
          shortMessage: text.parts[0]!,
        }),
      });
    };
    socket.on('error', reject);
    socket.on('connect', () =>
      queue({
        command: 'bind_transceiver',
        commandStatus: 0,
        sequenceNumber: 1,
        systemId: 'nok',
        password: 'nok',
        systemType: '',
        interfaceVersion: 0x34,
        addrTon: 0,
        addrNpi: 0,
        addressRange: '',
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      for (let pdu = reader.next(); pdu !== null; pdu = reader.next()) {
        if (pdu.command === 'bind_transceiver_resp') {
          while (sent < Math.min(WINDOW, quota)) submitNext();
        } else if (pdu.command === 'submit_sm_resp') {
          answered++;
          if (sent < quota) submitNext();
        } else if (pdu.command === 'deliver_sm') {
          if (++receiptsDone === SUBMITS) finish();
          queue({
            command: 'deliver_sm_resp',
            commandStatus: 0,
            sequenceNumber: pdu.sequenceNumber,
            messageId: '',
          });
        }
      }
      if (answered === quota) resolve();
    });
  });
}

const child = fork(CHILD, [], {
  execArgv: ['--expose-gc', '--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ready = await message(child);
if (ready.type !== 'ready') throw new Error('the SMSC child did not start');
child.send({ type: 'usage' });
const before = await message(child);
if (before.type !== 'usage') throw new Error('no usage from the SMSC child');

console.log(
  `${BENCH}: ${SUBMITS} submits over ${BINDS} transceiver binds, window ${WINDOW}, ` +
    `SMSC options ${process.env.NOK_BENCH_SMSC_OPTIONS ?? '{}'}`,
);
const startedAt = performance.now();
await Promise.all(Array.from({ length: BINDS }, () => runBind(ready.port, SUBMITS / BINDS)));
const answeredSeconds = (performance.now() - startedAt) / 1000;
await allReceipts;
const seconds = (performance.now() - startedAt) / 1000;
for (const socket of sockets) socket.end();
child.send({ type: 'usage' });
const after = await message(child);
if (after.type !== 'usage') throw new Error('no usage from the SMSC child');
child.send({ type: 'stop' });
await new Promise((resolve) => child.once('exit', resolve));

const perSecond = SUBMITS / seconds;
record({
  bench: BENCH,
  engine: '-',
  metric: 'submits answered',
  value: SUBMITS / answeredSeconds,
  unit: 'req/s',
});
record({
  bench: BENCH,
  engine: '-',
  metric: 'submits answered and receipts acknowledged',
  value: perSecond,
  unit: 'req/s',
  target: '≥ 9000',
  met: perSecond >= 9000,
});
record({
  bench: BENCH,
  engine: '-',
  metric: 'SMSC CPU time per 1,000 submits',
  value: ((after.cpuMs - before.cpuMs) * 1000) / SUBMITS,
  unit: 'ms',
});
record({
  bench: BENCH,
  engine: '-',
  metric: 'SMSC peak resident memory',
  value: after.peakRssBytes / 2 ** 20,
  unit: 'MB',
});
record({
  bench: BENCH,
  engine: '-',
  metric: 'SMSC heap still in use after the run',
  value: after.heapUsedBytes / 2 ** 20,
  unit: 'MB',
});
console.log(`  ${receiptsDone} receipts; ${machineCaveat()}`);
