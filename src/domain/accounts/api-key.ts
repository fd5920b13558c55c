import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Key format: `nok_<prefix>_<secret>`. The prefix (12 base32 characters) is stored in clear to
 * find the key and to show it in lists; only the SHA-256 of the whole key is stored. The secret
 * carries 192 random bits, so a fast hash is enough: there is nothing to brute-force.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const KEY_SHAPE = /^nok_([a-z2-7]{12})_([A-Za-z0-9_-]{32})$/;

export interface GeneratedKey {
  readonly key: string;
  readonly prefix: string;
  readonly secretHash: string;
}

export function generateApiKey(): GeneratedKey {
  const prefix = [...randomBytes(12)].map((b) => ALPHABET[b & 31]).join('');
  const secret = randomBytes(24).toString('base64url');
  const key = `nok_${prefix}_${secret}`;
  return { key, prefix, secretHash: hashApiKey(key) };
}

/** The lookup prefix of a well-formed key, or null for anything that cannot be a key. */
export function apiKeyPrefix(key: string): string | null {
  return KEY_SHAPE.exec(key)?.[1] ?? null;
}

/** The secret part of a well-formed key (it may itself contain `_`), or null. */
export function apiKeySecret(key: string): string | null {
  return KEY_SHAPE.exec(key)?.[2] ?? null;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyMatches(key: string, secretHash: string): boolean {
  const expected = Buffer.from(secretHash, 'hex');
  const actual = Buffer.from(hashApiKey(key), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
