// The built-in SMSC in a process of its own (`nok smsc`), as a carrier's SMSC would be: its CPU is
// not the dispatcher's. Started on a free port of 127.0.0.1; stopped by pid.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { SmscSettings } from '../../src/smsc/smsc-options.js';

export interface SmscProcess {
  readonly port: number;
  stop(): Promise<void>;
}

const NOK = fileURLToPath(new URL('../../src/cli/nok.ts', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startSmscProcess(options: SmscSettings): Promise<SmscProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', NOK, 'smsc'], {
    env: {
      ...process.env,
      NOK_SMSC_HOST: '127.0.0.1',
      NOK_SMSC_PORT: String(port),
      NOK_SMSC_OPTIONS: JSON.stringify(options),
      NOK_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`nok smsc exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('SMSC simulator listening')) resolve();
    });
  });
  child.stdout!.resume();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    port,
    async stop() {
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
