// A webhook receiver for the benches, on 127.0.0.1: answers 204 to every request and counts the
// recipients of `recipients.final` events, the requests, and when the last came.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FinalCounter {
  /** The endpoint's URL. */
  readonly url: string;
  /** Recipients in the `recipients.final` events received. */
  readonly finals: number;
  readonly requests: number;
  /** performance.now() of the last request. */
  readonly lastAt: number;
  /** Counts from zero again. */
  reset(): void;
  close(): void;
}

export async function startFinalCounter(): Promise<FinalCounter> {
  let finals = 0;
  let requests = 0;
  let lastAt = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString()) as {
        type: string;
        data: { recipients?: unknown[] };
      };
      requests++;
      if (event.type === 'recipients.final') finals += event.data.recipients!.length;
      lastAt = performance.now();
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get finals() {
      return finals;
    },
    get requests() {
      return requests;
    },
    get lastAt() {
      return lastAt;
    },
    reset() {
      finals = 0;
      requests = 0;
    },
    close: () => server.close(),
  };
}
