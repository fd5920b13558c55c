import type { UserStore } from './user-store.js';
import type { SessionStore } from './session-store.js';
import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord, User } from './user.js';

/** How long a session lives: `idleMs` since its last request, `absoluteMs` since it began. */
export interface SessionLimits {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

/** Unless the operator sets others (NOK_SESSION_IDLE_MINUTES, NOK_SESSION_MAX_HOURS). */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleMs: 30 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
};

/** A stored session a request carries, as found in the store: signed in when `user` is set. */
export interface LiveSession {
  readonly session: SessionRecord;
  readonly user: User | null;
}

/** 256 random bits, URL-safe: the cookie's value. Only its hash is stored. */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Starts a signed-in session with an id and a CSRF token of its own; answers the id to put in
 * the cookie. A sign-in never reuses the session it came from, so an id planted in a browser
 * before sign-in is worth nothing after it.
 */
export async function startSession(
  store: SessionStore,
  input: { userId: number; ip: string | null; nowMs: number },
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

/** How the cookie of an anonymous session begins; a stored session's id never does ('.'). */
const ANONYMOUS_PREFIX = 'anon.';
const ANONYMOUS_ID = /^anon\.[A-Za-z0-9_-]{43}$/;

/**
 * An anonymous session, for a browser nobody signed in to yet (the sign-in form needs a CSRF
 * token): nothing is stored (docs/adr/0032), so a flood of first visits writes nothing. Its
 * token is derived one-way from its random id, so whoever can read the token could read it
 * from `GET /session` with that cookie anyway, as with a stored session, and the token does
 * not give the cookie away.
 */
export function startAnonymousSession(): { id: string; csrfToken: string } {
  const id = `${ANONYMOUS_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { id, csrfToken: anonymousCsrfToken(id)! };
}

/** The CSRF token of an anonymous session's cookie value; null when it is not one. */
export function anonymousCsrfToken(id: string): string | null {
  if (!ANONYMOUS_ID.test(id)) return null;
  return createHash('sha256').update(`nok anonymous session\n${id}`).digest('base64url');
}

/**
 * The live stored session of a cookie value, or null when there is none: unknown, idle too
 * long, too old, or its user disabled (such a session is deleted on the spot). Rows without a
 * user are anonymous sessions stored before they stopped being stored; they live out their
 * time, as signed-in ones do. `lastSeenAt` is written
 * at most once per `touchMs`, so a busy page costs no write per request.
 */
export async function resolveSession(
  store: UserStore & SessionStore,
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
