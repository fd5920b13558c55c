// Signing as Standard Webhooks v1 says: `v1,` and the base64 HMAC-SHA256 of
// `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of the secret after `whsec_`.
// The HMAC is Node's own (node:crypto); the tests check our signatures with the specification's
// JavaScript library (`standardwebhooks`) and with the client's verifier.
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

/** The `webhook-signature` header: one `v1,…` per secret, separated by spaces. */
export function webhookSignature(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(
        secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret,
        'base64',
      );
      const mac = createHmac('sha256', key)
        .update(`${id}.${timestampSeconds}.${body}`)
        .digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}
