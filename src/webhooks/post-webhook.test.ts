import assert from 'node:assert/strict';
import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { freePort } from '../../test/support/free-port.js';
import { postWebhook, type ResolveHost, type WebhookPost } from './post-webhook.js';

const HINT = '(set NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets)';

interface Received {
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface TestServer {
  readonly port: number;
  readonly url: string;
  readonly received: Received[];
  /** Connections accepted, answered or not. */
  readonly connections: () => number;
  /** Resolves once every connection is closed: the client did not leave one open. */
  readonly idle: () => Promise<void>;
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 that records what it receives, closed after `use`. */
async function withServer(answer: Answer, use: (server: TestServer) => Promise<void>) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { method, url: path, headers } = request;
      received.push({ method, path, headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(request, response);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  // Not once(socket, 'close'): a socket the client destroyed may end with ECONNRESET first.
  const idle = async () => {
    await Promise.all(
      [...sockets].map((socket) => new Promise((closed) => socket.once('close', closed))),
    );
  };
  try {
    await use({
      port: address.port,
      url: `http://127.0.0.1:${address.port}`,
      received,
      connections: () => connections,
      idle,
    });
  } finally {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
}

function answerWith(status: number, headers: Record<string, string> = {}, body = ''): Answer {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

function post(url: string, overrides: Partial<WebhookPost> = {}): WebhookPost {
  return {
    url,
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,c2lnbmF0dXJl',
    },
    body: '{"type":"message.delivered","n":"é"}',
    timeoutMs: 5_000,
    allowPrivate: true,
    ...overrides,
  };
}

/** A resolver that answers `addresses` and records the names it was asked for. */
function resolverOf(...addresses: string[]): { resolve: ResolveHost; asked: string[] } {
  const asked: string[] = [];
  const resolve: ResolveHost = async (host) => {
    asked.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

test('a loopback target is refused unless private targets are allowed, and nothing is sent', async () => {
  await withServer(answerWith(200), async (server) => {
    const result = await postWebhook(post(`${server.url}/hooks`, { allowPrivate: false }));
    assert.deepEqual(result, {
      ok: false,
      statusCode: null,
      latencyMs: result.latencyMs,
      retryAfterMs: null,
      response: null,
      error: `refused: 127.0.0.1 is a loopback address ${HINT}`,
      refused: true,
    });
    assert.equal(server.connections(), 0);
  });
});

test('an allowed target gets the body and the headers, and a 2xx is ok', async () => {
  await withServer(answerWith(200, {}, 'thanks'), async (server) => {
    const sent = post(`${server.url}/hooks?account=7`);
    const result = await postWebhook(sent);
    assert.deepEqual(result, {
      ok: true,
      statusCode: 200,
      latencyMs: result.latencyMs,
      retryAfterMs: null,
      response: 'thanks',
      error: null,
      refused: false,
    });
    assert.ok(result.latencyMs >= 0);
    const [request] = server.received;
    assert.ok(request !== undefined);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/hooks?account=7');
    assert.equal(request.body, sent.body);
    assert.equal(request.headers['content-length'], String(Buffer.byteLength(sent.body)));
    assert.equal(request.headers['user-agent'], 'Nok-Webhooks/1');
    assert.equal(request.headers.host, `127.0.0.1:${server.port}`);
    for (const [name, value] of Object.entries(sent.headers)) {
      assert.equal(request.headers[name], value, name);
    }
  });
});

test('a name with a private address among its addresses is refused', async () => {
  await withServer(answerWith(200), async (server) => {
    const { resolve } = resolverOf('8.8.8.8', '127.0.0.1');
    const url = `http://hooks.example.test:${server.port}/`;
    const result = await postWebhook(post(url, { allowPrivate: false }), resolve);
    assert.equal(result.refused, true);
    assert.equal(result.statusCode, null);
    assert.equal(
      result.error,
      `refused: hooks.example.test resolves to 127.0.0.1, a loopback address ${HINT}`,
    );
    assert.equal(server.connections(), 0);
  });
});

test('a metadata address is refused even when private targets are allowed', async () => {
  const { resolve } = resolverOf('::ffff:169.254.169.254');
  const result = await postWebhook(post('http://metadata.example.test/latest'), resolve);
  assert.equal(result.refused, true);
  assert.match(result.error ?? '', /a cloud metadata address/);
});

test('a name is resolved once, and the connection goes to the address it resolved to', async () => {
  await withServer(answerWith(204), async (server) => {
    const { resolve, asked } = resolverOf('127.0.0.1');
    const url = `http://hooks.example.test:${server.port}/in`;
    const result = await postWebhook(post(url), resolve);
    assert.equal(result.ok, true);
    assert.equal(result.statusCode, 204);
    assert.deepEqual(asked, ['hooks.example.test']);
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0]?.headers.host, `hooks.example.test:${server.port}`);
  });
});

test('a failed lookup, or one with no address, is a DNS error', async () => {
  const notFound: ResolveHost = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
  };
  const failed = await postWebhook(post('http://nowhere.test/'), notFound);
  assert.equal(failed.error, 'DNS: no address for nowhere.test');
  assert.equal(failed.statusCode, null);
  assert.equal(failed.refused, false);
  const empty = await postWebhook(post('http://nowhere.test/'), resolverOf().resolve);
  assert.equal(empty.error, 'DNS: no address for nowhere.test');
});

test('a redirect is not followed', async () => {
  await withServer(answerWith(200), async (elsewhere) => {
    const location = `${elsewhere.url}/stolen`;
    await withServer(answerWith(302, { location }), async (server) => {
      const result = await postWebhook(post(`${server.url}/hooks`));
      assert.equal(result.ok, false);
      assert.equal(result.statusCode, 302);
      assert.equal(result.error, `redirect to ${location} not followed`);
      assert.equal(result.refused, false);
      assert.equal(elsewhere.connections(), 0);
    });
  });
  await withServer(answerWith(301), async (server) => {
    const result = await postWebhook(post(server.url));
    assert.equal(result.error, 'answered 301');
  });
});

test('a non-2xx answer fails with its code and the start of its body', async () => {
  await withServer(answerWith(500, {}, 'database down'), async (server) => {
    const result = await postWebhook(post(server.url));
    assert.equal(result.ok, false);
    assert.equal(result.statusCode, 500);
    assert.equal(result.error, 'answered 500');
    assert.equal(result.response, 'database down');
  });
});

test('Retry-After is read on 429 and 503 only, as seconds or an HTTP date, capped at a day', async () => {
  const soon = new Date(Date.now() + 120_000).toUTCString();
  const past = new Date(Date.now() - 60_000).toUTCString();
  const cases: { status: number; retryAfter?: string; expect: (ms: number | null) => boolean }[] = [
    { status: 429, retryAfter: '7', expect: (ms) => ms === 7_000 },
    { status: 503, retryAfter: soon, expect: (ms) => ms !== null && ms > 110_000 && ms <= 120_000 },
    { status: 503, retryAfter: past, expect: (ms) => ms === 0 },
    { status: 429, retryAfter: '999999', expect: (ms) => ms === 86_400_000 },
    { status: 429, retryAfter: 'soon', expect: (ms) => ms === null },
    { status: 429, retryAfter: '1.5', expect: (ms) => ms === null },
    { status: 429, expect: (ms) => ms === null },
    { status: 500, retryAfter: '7', expect: (ms) => ms === null },
    { status: 200, retryAfter: '7', expect: (ms) => ms === null },
  ];
  const answer: Answer = (request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const retryAfter = query.get('retryAfter');
    response.writeHead(
      Number(query.get('status')),
      retryAfter ? { 'retry-after': retryAfter } : {},
    );
    response.end();
  };
  await withServer(answer, async (server) => {
    for (const { status, retryAfter, expect } of cases) {
      const query = new URLSearchParams({ status: String(status), retryAfter: retryAfter ?? '' });
      const result = await postWebhook(post(`${server.url}/?${query}`));
      assert.equal(result.statusCode, status);
      assert.ok(expect(result.retryAfterMs), `${status} ${retryAfter}: ${result.retryAfterMs}`);
    }
  });
});

test('a target that never answers times out, and no socket or timer is left behind', async () => {
  await withServer(
    () => {},
    async (server) => {
      const before = timers();
      const started = Date.now();
      const result = await postWebhook(post(server.url, { timeoutMs: 200 }));
      assert.equal(result.ok, false);
      assert.equal(result.statusCode, null);
      assert.equal(result.response, null);
      assert.equal(result.error, 'timed out after 200 ms');
      assert.ok(Date.now() - started >= 190);
      assert.equal(timers(), before);
      assert.equal(server.received.length, 1);
      await server.idle();
    },
  );
});

test('a lookup that never ends times out too', async () => {
  const never: ResolveHost = () => new Promise(() => {});
  const result = await postWebhook(post('http://slow.example.test/', { timeoutMs: 50 }), never);
  assert.equal(result.error, 'timed out after 50 ms');
  assert.equal(result.refused, false);
});

test('only the start of a huge answer is read', async () => {
  const huge = 'x'.repeat(5 * 1024 * 1024);
  await withServer(answerWith(200, {}, huge), async (server) => {
    const result = await postWebhook(post(server.url));
    assert.equal(result.ok, true);
    assert.equal(result.response, 'x'.repeat(1_000));
    await server.idle();
  });
  // An answer that never ends: the call returns only if it stops reading.
  const endless: Answer = (_request, response) => {
    response.writeHead(500);
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const write = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', write);
    };
    write();
  };
  await withServer(endless, async (server) => {
    const result = await postWebhook(post(server.url));
    assert.equal(result.error, 'answered 500');
    assert.equal(result.response, 'y'.repeat(1_000));
    await server.idle();
  });
});

test('the answer is decoded as UTF-8, invalid bytes replaced, and cut at 1,000 characters', async () => {
  const answer: Answer = (_request, response) => {
    response.writeHead(400);
    response.end(Buffer.concat([Buffer.from([0xff]), Buffer.from('€😀'.repeat(1_000))]));
  };
  await withServer(answer, async (server) => {
    const result = await postWebhook(post(server.url));
    assert.equal(result.statusCode, 400);
    const text = result.response ?? '';
    assert.ok(text.length <= 1_000 && text.length >= 999, String(text.length));
    assert.ok(text.startsWith('\ufffd€😀€😀'));
    // No half of a surrogate pair at the end.
    assert.ok(!/[\ud800-\udbff]$/.test(text));
  });
});

test('a port with nothing listening is a connection error', async () => {
  const port = await freePort();
  const result = await postWebhook(post(`http://127.0.0.1:${port}/`));
  assert.equal(result.ok, false);
  assert.equal(result.statusCode, null);
  assert.equal(result.error, 'connection refused');
  assert.equal(result.refused, false);
});

test('https to a target that does not speak TLS fails without throwing', async () => {
  await withServer(answerWith(200), async (server) => {
    const result = await postWebhook(post(`https://127.0.0.1:${server.port}/`));
    assert.equal(result.ok, false);
    assert.equal(result.statusCode, null);
    assert.ok(result.error !== null && result.error !== '');
  });
});

test('only http(s) URLs without credentials may be targets', async () => {
  const { resolve, asked } = resolverOf('8.8.8.8');
  const cases: [string, string][] = [
    [
      'ftp://files.example.test/hook',
      'refused: only http and https URLs may be webhook targets, not ftp:',
    ],
    ['file:///etc/passwd', 'refused: only http and https URLs may be webhook targets, not file:'],
    [
      'https://user:secret@hooks.example.test/',
      'refused: a webhook URL may not carry a user name or password',
    ],
    [
      'https://user@hooks.example.test/',
      'refused: a webhook URL may not carry a user name or password',
    ],
    ['not a url', 'refused: not a valid URL'],
    ['http://[::1]:8080/', `refused: ::1 is a loopback address ${HINT}`],
  ];
  for (const [url, error] of cases) {
    const result = await postWebhook(post(url, { allowPrivate: false }), resolve);
    assert.equal(result.refused, true, url);
    assert.equal(result.statusCode, null, url);
    assert.equal(result.error, error, url);
  }
  assert.deepEqual(asked, []);
});

test('a connection is kept for the next request, and one the server closed meanwhile is replaced', async () => {
  // A raw server: the first connection answers two requests with keep-alive, then drops the
  // connection as the third arrives on it, as a server closing an idle connection does when a
  // request crosses its close; every later connection answers normally.
  const connections: Socket[] = [];
  const answered: number[] = [];
  const server = createNetServer((socket) => {
    const index = connections.push(socket) - 1;
    let requests = 0;
    socket.on('data', (chunk: Buffer) => {
      if (!chunk.includes('\r\n\r\n')) return;
      requests++;
      if (index === 0 && requests === 3) return socket.destroy();
      answered.push(index);
      socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const post: WebhookPost = {
      url: `http://127.0.0.1:${port}/hooks`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 2_000,
      allowPrivate: true,
    };
    assert.equal((await postWebhook(post)).statusCode, 204);
    assert.equal((await postWebhook(post)).statusCode, 204);
    assert.equal(connections.length, 1, 'the connection was kept for the second request');
    const third = await postWebhook(post);
    assert.equal(third.ok, true, third.error ?? '');
    assert.equal(connections.length, 2, 'the third went out again on a new connection');
    assert.deepEqual(answered, [0, 0, 1]);
  } finally {
    for (const socket of connections) socket.destroy();
    server.close();
  }
});
