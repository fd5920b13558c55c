// The reference of the delivery bench: Kannel (Debian's kannel 1.4.5, bearerbox + smsbox) pushes
// the same load through the same SMSC — sendsms with 100 numbers per request, a delivered DLR
// asked for each and reported to an HTTP server of the bench — timed from the first request to
// the last DLR, the same span as Nok's figure (request → last status stored).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KANNEL_ADMIN_PASSWORD,
  SENDSMS_USER,
  kannelConfig,
} from '../../test/interop/kannel-config.js';
import { PeerProcess } from '../../test/interop/peer-process.js';
import { requireCommand } from '../../test/interop/require-command.js';
import { waitUntil } from '../../test/interop/wait-until.js';
import { freePort } from './smsc-process.js';

const NUMBERS_PER_REQUEST = 100;
const CONCURRENT_REQUESTS = 8;

export async function kannelDeliverySeconds(options: {
  smscPort: number;
  numbers: number;
  binds: number;
  timeoutMs: number;
}): Promise<number> {
  const bearerboxCommand = requireCommand('bearerbox', 'kannel');
  const smsboxCommand = requireCommand('smsbox', 'kannel');
  const dir = await mkdtemp(join(tmpdir(), 'nok-bench-kannel-'));
  const stops: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  try {
    let delivered = 0;
    const receiver = createServer((request, response) => {
      if (request.url?.includes('type=1')) delivered++;
      response.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    stops.push(
      () =>
        new Promise((resolve) => {
          receiver.close(resolve);
          receiver.closeAllConnections();
        }),
    );
    const dlrPort = (receiver.address() as { port: number }).port;
    const ports = { admin: await freePort(), smsbox: await freePort(), sendsms: await freePort() };
    const configFile = join(dir, 'kannel.conf');
    await writeFile(
      configFile,
      kannelConfig(dir, options.smscPort, ports, {
        logLevel: 2,
        binds: options.binds,
        enquireLinkIntervalSeconds: 30,
      }),
    );
    const status = async () => {
      try {
        const url = `http://127.0.0.1:${ports.admin}/status.xml?password=${KANNEL_ADMIN_PASSWORD}`;
        return await (await fetch(url)).text();
      } catch {
        return '';
      }
    };
    const bearerbox = await PeerProcess.start('bearerbox', bearerboxCommand, [
      '-v',
      '3',
      configFile,
    ]);
    stops.push(() => bearerbox.stop());
    await waitUntil(
      async () => ((await status()).match(/<status>online/g)?.length ?? 0) >= options.binds,
      30_000,
      () => `Kannel did not bind ${options.binds} times:\n${bearerbox.output()}`,
    );
    const smsbox = await PeerProcess.start('smsbox', smsboxCommand, ['-v', '3', configFile]);
    stops.push(() => smsbox.stop());
    await waitUntil(
      async () => (await status()).includes('<type>smsbox</type>'),
      30_000,
      () => `smsbox did not connect:\n${smsbox.output()}`,
    );

    const requests = Math.ceil(options.numbers / NUMBERS_PER_REQUEST);
    const url = (r: number) => {
      const first = r * NUMBERS_PER_REQUEST;
      const count = Math.min(NUMBERS_PER_REQUEST, options.numbers - first);
      const to = Array.from({ length: count }, (_, i) => `668${String(20_000_000 + first + i)}`);
      const query = new URLSearchParams({
        ...SENDSMS_USER,
        from: 'NOKBENCH',
        to: to.join(' '),
        text: 'Kannel delivery bench',
        'dlr-mask': '1',
        'dlr-url': `http://127.0.0.1:${dlrPort}/dlr?type=%d`,
      });
      return `http://127.0.0.1:${ports.sendsms}/cgi-bin/sendsms?${query}`;
    };
    const trace = process.env.NOK_BENCH_TRACE
      ? setInterval(async () => {
          const xml = await status();
          const pick = (tag: string) =>
            xml
              .match(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))
              ?.slice(0, 6)
              .join(' ');
          console.log(
            `kannel: ${delivered} DLRs;`,
            pick('sent'),
            pick('received'),
            pick('queued'),
            pick('dlr'),
            pick('storesize'),
          );
        }, 5000)
      : undefined;
    stops.push(async () => clearInterval(trace));
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENT_REQUESTS }, async () => {
        while (next < requests) {
          const response = await fetch(url(next++));
          await response.text();
          if (response.status !== 202) throw new Error(`sendsms answered ${response.status}`);
        }
      }),
    );
    await waitUntil(
      () => delivered >= options.numbers,
      options.timeoutMs,
      () => `Kannel: ${delivered} of ${options.numbers} DLRs`,
    );
    return (performance.now() - start) / 1000;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
