import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Nok,
  NokError,
  verifyWebhook,
  WebhookVerificationError,
} from '../../packages/client/src/index.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

/**
 * The typed client (packages/client) against a real Nok over HTTP on loopback, on each engine:
 * what a customer's program meets — a dropped connection, a 429, a send of ten thousand
 * numbers read back by cursor and by export, Nok's errors, and webhooks to verify.
 */
for (const engine of testEngines()) {
  describe(`the client against a real Nok (${engine.name})`, () => {
    let h: Harness;
    let c: Customer;
    let url: string;

    before(async () => {
      h = await createHarness(engine, { rateLimitRequests: 1_000 });
      c = await h.customer({ credits: 1_000_000 });
      url = await h.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => h.close());

    it('sends, and reads each recipient of a 10,000-number send once, by cursor and by export', async () => {
      const nok = new Nok({ url, apiKey: c.key });
      const msisdns = Array.from({ length: 10_000 }, (_, i) => `66${812_000_000 + i}`);
      const sent = await nok.send({ sender: c.sender, content: 'Hello', msisdns });
      assert.equal(sent.recipients.charged, 10_000);
      const seen = new Map<number, string>();
      for await (const r of nok.recipients(sent.uuid)) {
        assert.equal(seen.has(r.seq), false, `recipient ${r.seq} twice`);
        seen.set(r.seq, r.msisdn);
      }
      assert.equal(seen.size, 10_000);
      assert.deepEqual(new Set(seen.values()), new Set(msisdns));
      const exported = [];
      for await (const r of nok.exportRecipients(sent.uuid)) exported.push(r);
      assert.deepEqual(
        exported.map((r) => [r.seq, r.msisdn]),
        [...seen],
      );
      const csv = [];
      for await (const line of nok.exportLines(sent.uuid, { status: 'pending' })) csv.push(line);
      assert.equal(csv[0], 'seq,msisdn,status,updatedAt');
      assert.equal(csv.length, 1 + 10_000);
      const message = await nok.message(sent.uuid);
      assert.equal(message.uuid, sent.uuid);
      let found = false;
      for await (const m of nok.messages()) found ||= m.uuid === sent.uuid;
      assert.ok(found, 'the send is among the account’s messages');
    });

    it('charges a send once when its connection dropped before the answer and it was tried again', async () => {
      // A proxy that lets the first request through to Nok and drops the connection as the
      // answer starts: Nok has accepted and charged it, the client has seen nothing.
      const target = new URL(url);
      let connections = 0;
      const proxy = net.createServer((client) => {
        const drop = connections++ === 0;
        const upstream = net.connect(Number(target.port), target.hostname);
        client.pipe(upstream);
        upstream.on('data', (chunk) => {
          if (drop) {
            client.destroy();
            upstream.destroy();
          } else client.write(chunk);
        });
        upstream.on('end', () => client.end());
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        const port = (proxy.address() as net.AddressInfo).port;
        const nok = new Nok({
          url: `http://127.0.0.1:${port}`,
          apiKey: c.key,
          sleep: async () => {},
        });
        const before = await h.store.ledgerSum(c.account.id);
        const sent = await nok.send({
          sender: c.sender,
          content: 'Once',
          msisdns: ['66812345678'],
        });
        assert.equal(connections >= 2, true, 'the send was tried again');
        assert.equal(await h.store.ledgerSum(c.account.id), before - sent.cost);
        assert.equal(sent.cost, 1);
      } finally {
        await new Promise((resolve) => proxy.close(resolve));
      }
    });

    it('waits a 429 out for as long as Retry-After says, then gets its answer', async () => {
      const limited = await createHarness(engine, { rateLimitRequests: 2 });
      try {
        const customer = await limited.customer();
        const limitedUrl = await limited.app.listen({ host: '127.0.0.1', port: 0 });
        const waits: number[] = [];
        const nok = new Nok({
          url: limitedUrl,
          apiKey: customer.key,
          // Time passes only when the client waits: the rate limit's window is on Nok's clock.
          sleep: async (ms) => {
            waits.push(ms);
            limited.clock.advance(ms);
          },
        });
        for (let i = 0; i < 3; i++) assert.equal(typeof (await nok.balance()).balance, 'number');
        assert.equal(waits.length, 1, 'the third call met a 429 once');
        assert.ok(waits[0]! >= 1000 && waits[0]! <= 60_000, `waited ${waits[0]} ms`);
      } finally {
        await limited.close();
      }
    });

    it('throws Nok’s errors typed by code, with the request id', async () => {
      const nok = new Nok({ url, apiKey: c.key });
      await assert.rejects(
        () => nok.message('00000000-0000-4000-8000-000000000000'),
        (error: unknown) => {
          assert.ok(error instanceof NokError);
          assert.equal(error.status, 404);
          assert.equal(error.code, 'NOT_FOUND');
          assert.match(String(error.requestId), /\S/);
          return true;
        },
      );
      const wrongKey = new Nok({ url, apiKey: 'nok_live_nothing' });
      await assert.rejects(() => wrongKey.balance(), { name: 'NokError', code: 'UNAUTHORIZED' });
    });
  });
}

describe('verifying a webhook', () => {
  const key = Buffer.from('a webhook secret of 32 bytes....');
  const secret = `whsec_${key.toString('base64')}`;
  const body = JSON.stringify({ type: 'message.completed', data: { uuid: 'u' } });
  const now = 1_800_000_000_000;
  const timestamp = String(now / 1000);
  const sign = (k: Buffer, text = body) =>
    `v1,${createHmac('sha256', k).update(`msg_1.${timestamp}.${text}`).digest('base64')}`;
  const headers = (signature: string, at = timestamp) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': at,
    'webhook-signature': signature,
  });

  it('accepts a body signed with the secret, also beside another signature while it rotates', async () => {
    assert.deepEqual(
      await verifyWebhook(body, headers(sign(key)), secret, { now }),
      JSON.parse(body),
    );
    const other = sign(Buffer.from('the other secret, being retired.'));
    assert.deepEqual(
      await verifyWebhook(body, new Headers(headers(`${other} ${sign(key)}`)), secret, { now }),
      JSON.parse(body),
    );
  });

  it('refuses a tampered body, another secret, a stale timestamp and missing headers', async () => {
    const refusals = [
      () => verifyWebhook(body.replace('u', 'v'), headers(sign(key)), secret, { now }),
      () =>
        verifyWebhook(
          body,
          headers(sign(Buffer.from('not the secret at all, 32 bytes.'))),
          secret,
          {
            now,
          },
        ),
      () => verifyWebhook(body, headers(sign(key), String(now / 1000 - 301)), secret, { now }),
      () => verifyWebhook(body, { 'webhook-id': 'msg_1' }, secret, { now }),
    ];
    for (const refused of refusals) await assert.rejects(refused, WebhookVerificationError);
  });
});
