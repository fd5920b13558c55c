// docs/webhooks.md gives receivers a request to test their verification with: it must be one
// Nok's signer makes and the client's verifier accepts, or the guide misleads them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verifyWebhook } from '../../packages/client/src/webhooks.js';
import { webhookSignature } from '../../src/webhooks/sign.js';

const guide = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

function vector() {
  const field = (name: string) => {
    const match = new RegExp(`^${name} +(.+)$`, 'm').exec(guide);
    assert.ok(match, `the guide's test request has no ${name}`);
    return match[1]!;
  };
  return {
    secret: field('secret'),
    id: field('webhook-id'),
    timestamp: field('webhook-timestamp'),
    signature: field('webhook-signature'),
    body: field('body'),
  };
}

describe("the webhooks guide's test request", () => {
  it('is signed as Nok signs, and verifies with the client', async () => {
    const v = vector();
    assert.equal(webhookSignature([v.secret], v.id, Number(v.timestamp), v.body), v.signature);
    const event = await verifyWebhook<{ type: string }>(
      v.body,
      { 'webhook-id': v.id, 'webhook-timestamp': v.timestamp, 'webhook-signature': v.signature },
      v.secret,
      { now: Number(v.timestamp) * 1000 },
    );
    assert.equal(event.type, 'webhook.test');
  });
});
