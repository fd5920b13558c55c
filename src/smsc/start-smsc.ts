import { createServer } from 'node:net';
import { Smsc } from './smsc.js';
import { resolveSmscOptions, type SmscOptions } from './smsc-options.js';
import type { SmscStats } from './smsc-stats.js';

export interface RunningSmsc {
  readonly host: string;
  readonly port: number;
  /** Live counters (and the submit record, when asked for); read them at any time. */
  readonly stats: SmscStats;
  /**
   * Drops every client connection now and goes on listening (a network cut): clients bind
   * again, and receipts not yet acknowledged are sent on their new binds. Returns how many
   * connections were dropped.
   */
  dropConnections(): number;
  /** Stops listening, drops every connection and timer; resolves once the port is free. */
  close(): Promise<void>;
}

/**
 * Starts the built-in SMSC simulator: a real SMPP 3.4 server (TCP, default 127.0.0.1 on a free
 * port) that behaves as `options` say. It is the demo carrier of `nok start` and the test double
 * of the delivery tests.
 */
export async function startSmsc(options: SmscOptions = {}): Promise<RunningSmsc> {
  const resolved = resolveSmscOptions(options);
  const smsc = new Smsc(resolved);
  const server = createServer((socket) => smsc.accept(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMSC has no TCP port');
  let closing: Promise<void> | null = null;
  return {
    host: resolved.host,
    port: address.port,
    stats: smsc.stats,
    dropConnections: () => smsc.dropConnections(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        smsc.close();
      });
      return closing;
    },
  };
}
