import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../ports.js';
import type { SessionRecord, User } from './user.js';

/** How long a session lives: `idleMs` since its last request, `absoluteMs` since it began. */
export interface SessionLimits {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

/** The session a request carries, as found in the store: signed in when `user` is set. */
export interface LiveSession {
  readonly session: SessionRecord;
  readonly user: User | null;
}

/** 256 random bits, URL-safe: the cookie's value. Only its hash is stored. */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Starts a session (signed in when `userId` is given) with an id and a CSRF token of its own;
 * answers the id to put in the cookie. A sign-in never reuses the session it came from, so an
 * id planted in a browser before sign-in is worth nothing after it.
 */
export async function startSession(
  store: Pick<Store, 'insertSession'>,
  input: { userId: number | null; ip: string | null; nowMs: number },
): Promise<{ id: string; session: SessionRecord }> {
  const id = randomBytes(32).toString('base64url');
  const session: SessionRecord = {
    idHash: hashSessionId(id),
    userId: input.userId,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: input.nowMs,
    lastSeenAt: input.nowMs,
    ip: input.ip,
  };
  await store.insertSession(session);
  return { id, session };
}

/**
 * The live session of a cookie value, or null when there is none: unknown, idle too long, too
 * old, or its user disabled (such a session is deleted on the spot). `lastSeenAt` is written
 * at most once per `touchMs`, so a busy page costs no write per request.
 */
export async function resolveSession(
  store: Pick<Store, 'findSession' | 'findUser' | 'touchSession' | 'deleteSession'>,
  id: string,
  limits: SessionLimits,
  nowMs: number,
): Promise<LiveSession | null> {
  if (id.length === 0 || id.length > 100) return null;
  const session = await store.findSession(hashSessionId(id));
  if (!session) return null;
  const expired =
    nowMs - session.lastSeenAt >= limits.idleMs || nowMs - session.createdAt >= limits.absoluteMs;
  const user = !expired && session.userId !== null ? await store.findUser(session.userId) : null;
  if (expired || (session.userId !== null && (!user || user.status !== 'active'))) {
    await store.deleteSession(session.idHash);
    return null;
  }
  const touchMs = Math.min(60_000, limits.idleMs / 4);
  if (nowMs - session.lastSeenAt >= touchMs) await store.touchSession(session.idHash, nowMs);
  return { session: { ...session, lastSeenAt: nowMs }, user };
}
