// A real HTTP receiver of webhooks for tests, on 127.0.0.1: it records every request (headers
// and the body exactly as received) and answers as `answer` decides for each, so a test can make
// it fail, time out or answer 500 for a while.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
  /** What the receiver answered (null: it never answered). */
  readonly status: number | null;
}

/** How to answer one request: a status (with headers), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedWebhook[];
  /** Decides each answer; the default answers 204. */
  answer: (request: { body: string; headers: IncomingHttpHeaders }) => Answer;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => ({ status: 204 }),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = receiver.answer({ body, headers: request.headers });
      receiver.received.push({
        headers: request.headers,
        body,
        at: Date.now(),
        status: answer === 'hang' ? null : answer.status,
      });
      if (answer === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.status === 204 ? undefined : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(receiver, { port, url: `http://127.0.0.1:${port}${path}` });
  return receiver;
}
