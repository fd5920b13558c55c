// Runs autocannon in a process of its own (never in the bench's or the server's event loop) and
// returns its figures.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

const require = createRequire(import.meta.url);
const AUTOCANNON = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

export function autocannon(
  url: string,
  apiKey: string,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        AUTOCANNON,
        '--json',
        '-c',
        String(connections),
        '-d',
        String(seconds),
        '-H',
        `x-api-key=${apiKey}`,
        url,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${stderr}`));
      const out = JSON.parse(stdout) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        requestsPerSecond: out.requests.average,
        latencyP50Ms: out.latency.p50,
        latencyP99Ms: out.latency.p99,
        total: out.requests.total,
        non2xx: out.non2xx,
        errors: out.errors,
      });
    });
  });
}
