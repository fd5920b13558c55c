import { createHash, randomBytes } from 'node:crypto';

/**
 * A one-time token for a link sent by mail (an invitation, a password reset): 256 random bits,
 * URL-safe. Only its SHA-256 is stored, so a copy of the database opens nothing.
 */
export function newOneTimeToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashOneTimeToken(token) };
}

export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as a browser may send it: anything else names nothing and is not looked up. */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
