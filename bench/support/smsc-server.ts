// Child process of smsc-throughput.bench.ts: runs the SMSC simulator alone on its own event loop,
// as `nok smsc` would, and reports its CPU time and memory on request over IPC.
import { parseSmscOptions } from '../../src/smsc/parse-smsc-options.js';
import { startSmsc } from '../../src/smsc/start-smsc.js';

export type SmscChildMessage =
  | { type: 'ready'; port: number }
  | {
      type: 'usage';
      cpuMs: number;
      peakRssBytes: number;
      heapUsedBytes: number;
      partsAccepted: number;
      receiptsAcknowledged: number;
    };

const smsc = await startSmsc({
  firstMessageId: 1,
  ...parseSmscOptions(JSON.parse(process.env.NOK_BENCH_SMSC_OPTIONS ?? '{}')),
});
const send = (message: SmscChildMessage) => process.send!(message);
send({ type: 'ready', port: smsc.port });

process.on('message', (message: { type: 'usage' | 'stop' }) => {
  if (message.type === 'stop') {
    void smsc.close().then(() => process.disconnect());
    return;
  }
  const cpu = process.cpuUsage();
  // Forked with --expose-gc: what is left after a collection is what the SMSC holds on to.
  (globalThis as { gc?: () => void }).gc?.();
  send({
    type: 'usage',
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: process.memoryUsage().heapUsed,
    partsAccepted: smsc.stats.partsAccepted,
    receiptsAcknowledged: smsc.stats.receiptsAcknowledged,
  });
});
