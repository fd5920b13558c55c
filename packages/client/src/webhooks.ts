// Verifying a webhook Nok sent, by the Standard Webhooks specification (v1): the signature is
// `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the endpoint's secret
// (`whsec_` and its base64 key). The HMAC is the platform's own (Web Crypto), on Node 20+ and
// in browsers.

/** The headers of a webhook request (names in lower case, as Node and fetch give them). */
export interface WebhookHeaders {
  readonly 'webhook-id'?: string | null;
  readonly 'webhook-timestamp'?: string | null;
  readonly 'webhook-signature'?: string | null;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/**
 * Checks that `body` (the request's body exactly as received, before any JSON parsing) was
 * signed with `secret` and sent within `toleranceSeconds` of now (default 5 minutes), and
 * returns it parsed. While a secret is being rotated Nok signs with both; any one signature
 * made with `secret` is enough. Throws `WebhookVerificationError` otherwise.
 */
export async function verifyWebhook<T = unknown>(
  body: string,
  headers: WebhookHeaders | Headers,
  secret: string,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): Promise<T> {
  const header = (name: keyof WebhookHeaders) =>
    (headers instanceof Headers ? headers.get(name) : headers[name]) ?? undefined;
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature',
    );
  }
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - sentAt) > toleranceSeconds) {
    throw new WebhookVerificationError('the webhook’s timestamp is too old, too new or not one');
  }
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = fromBase64(signature);
    } catch {
      continue;
    }
    // Web Crypto compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, bytes, signed)) return JSON.parse(body) as T;
  }
  throw new WebhookVerificationError('no signature of the webhook matches the secret');
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
