// Parent-side handle on a Nok server child (nok-server.ts): start, seed, read its peak RSS, stop.
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage } from './nok-server.js';

export interface NokServer {
  readonly pid: number;
  readonly url: string;
  /** The operator endpoints: /metrics, /status. */
  readonly opsUrl: string;
  seed(
    credits: number,
    blocked: readonly string[],
  ): Promise<{ key: string; sender: string; accountId: number }>;
  /** Points the account's webhook endpoint at `url`, enabled or not (made at the first call). */
  setWebhook(accountId: number, url: string, enabled: boolean): Promise<void>;
  /** The child's peak resident set (VmHWM) since it started or since the last reset, in bytes. */
  peakRssBytes(): number;
  rssBytes(): number;
  /** CPU time (user and system) the child has used since it started, in seconds. */
  cpuSeconds(): number;
  /** CPU time of the child's main thread alone (its event loop), in seconds. */
  mainThreadCpuSeconds(): number;
  /** Resets VmHWM to the current RSS (Linux `clear_refs` 5), so the next peak is one phase's. */
  resetPeakRss(): void;
  stop(): Promise<void>;
}

const SERVER_ENTRY = fileURLToPath(new URL('./nok-server.ts', import.meta.url));

export async function startNokServer(env: Record<string, string>): Promise<NokServer> {
  const child = fork(SERVER_ENTRY, [], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.NOK_BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      NOK_HOST: '127.0.0.1',
      NOK_PORT: '0',
      NOK_OPS_PORT: '0',
      NOK_LOG_LEVEL: 'warn',
      NOK_RATE_LIMIT_REQUESTS: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const ready = await nextMessage(child, exited);
  if (ready.type !== 'ready') throw new Error(`Nok server failed to start: ${describe(ready)}`);
  const pid = child.pid!;

  return {
    pid,
    url: ready.url,
    opsUrl: ready.opsUrl,
    async seed(credits, blocked) {
      child.send({ type: 'seed', credits, blocked } satisfies ParentMessage);
      const answer = await nextMessage(child, exited);
      if (answer.type !== 'seeded') throw new Error(`seeding failed: ${describe(answer)}`);
      return { key: answer.key, sender: answer.sender, accountId: answer.accountId };
    },
    async setWebhook(accountId, url, enabled) {
      child.send({ type: 'webhook', accountId, url, enabled } satisfies ParentMessage);
      const answer = await nextMessage(child, exited);
      if (answer.type !== 'webhook-set') throw new Error(`webhook failed: ${describe(answer)}`);
    },
    peakRssBytes: () => statusKb(pid, 'VmHWM') * 1024,
    rssBytes: () => statusKb(pid, 'VmRSS') * 1024,
    cpuSeconds: () => cpuSeconds(`/proc/${pid}/stat`),
    mainThreadCpuSeconds: () => cpuSeconds(`/proc/${pid}/task/${pid}/stat`),
    resetPeakRss: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function nextMessage(child: ChildProcess, exited: Promise<number | null>): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => resolve(message);
    child.once('message', onMessage);
    void exited.then((code) => {
      child.off('message', onMessage);
      reject(new Error(`Nok server exited with code ${code}`));
    });
  });
}

function describe(message: ChildMessage): string {
  return message.type === 'failed' ? message.error : message.type;
}

/** utime + stime of a /proc stat file (fields 14 and 15, after the parenthesised name). */
function cpuSeconds(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

const CLOCK_TICKS = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}
