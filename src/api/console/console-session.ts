import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import type { Account } from '../../domain/accounts/account-store.js';
import type { Store } from '../../domain/store.js';
import { totpRequirement, type TotpRequirement } from '../../domain/users/two-factor.js';
import {
  anonymousCsrfToken,
  resolveSession,
  type SessionLimits,
} from '../../domain/users/sessions.js';
import type { User, UserRole } from '../../domain/users/user.js';
import type { ConsoleAccess, ConsoleRole } from '../access.js';

/** The session cookie: HttpOnly, SameSite=Lax, Path=/console, Secure over TLS. */
export const SESSION_COOKIE = 'nok_session';
/** The header a state-changing console request carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** The signed-in person, as a console handler sees them. */
export interface ConsoleUser {
  readonly id: number;
  /** The customer account; null for platform admins. */
  readonly accountId: number | null;
  readonly role: UserRole;
  readonly email: string;
  readonly name: string;
  readonly timeZone: string | null;
  /** TOTP is in force for them. */
  readonly totpEnabled: boolean;
  /** Why they must use TOTP (their role, their account), or null: their choice. */
  readonly totpRequired: TotpRequirement;
}

/** What the access hook found for a console request. */
export interface ConsoleContext {
  /**
   * The stored id (the hash of the cookie's value), never the cookie's value itself; null for
   * an anonymous session, which nothing stores.
   */
  readonly sessionId: string | null;
  readonly csrfToken: string;
  /** null: an anonymous session (only `guest` routes see one). */
  readonly user: ConsoleUser | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session, set by the access hook on console routes; null when there is none. */
    console: ConsoleContext | null;
  }
}

export function toConsoleUser(user: User, account: Account | null): ConsoleUser {
  return {
    id: user.id,
    accountId: user.accountId,
    role: user.role,
    email: user.email,
    name: user.name,
    timeZone: user.timeZone,
    totpEnabled: user.totpEnabledAt !== null,
    totpRequired: totpRequirement(user, account),
  };
}

/** Whether this person holds a restricted session: they must enrol in TOTP before anything else. */
export function mustEnrol(user: ConsoleUser): boolean {
  return !user.totpEnabled && user.totpRequired !== null;
}

/** The signed-in user of a console request; 401 when nobody is (a `guest` route's caller). */
export function consoleUser(request: FastifyRequest): ConsoleUser {
  const user = request.console?.user;
  if (!user) throw new DomainError('UNAUTHORIZED', 'Sign in first');
  return user;
}

/** The stored id of a signed-in request's session; 401 when nobody is signed in. */
export function consoleSessionId(request: FastifyRequest): string {
  const id = request.console?.sessionId;
  if (!id || !request.console?.user) throw new DomainError('UNAUTHORIZED', 'Sign in first');
  return id;
}

/** The customer account the signed-in user acts for; 403 for a platform admin, who has none. */
export function consoleAccountId(request: FastifyRequest): number {
  const user = consoleUser(request);
  if (user.accountId === null) {
    throw new DomainError('FORBIDDEN', 'This page belongs to a customer account');
  }
  return user.accountId;
}

/** Who did it and from where, for `recordAudit`: spread it into the event. */
export function auditActor(request: FastifyRequest): {
  actorUserId: number | null;
  accountId: number | null;
  ip: string | null;
} {
  const user = request.console?.user ?? null;
  return { actorUserId: user?.id ?? null, accountId: user?.accountId ?? null, ip: request.ip };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Which roles of person a console role admits. */
const ADMITTED: Record<Exclude<ConsoleRole, 'guest'>, readonly UserRole[]> = {
  user: ['member', 'owner', 'admin'],
  member: ['member', 'owner'],
  owner: ['owner'],
  admin: ['admin'],
};

/**
 * The access guard of console routes (declared `{ role }`), run by the one access hook before
 * anything else of the request: finds the session of the cookie (expired ones are gone), then
 * refuses, in this order, a route that needs someone signed in without one (401), a state
 * change that is cross-origin or lacks the session's CSRF token (403 CSRF_FAILED), a role the
 * route does not admit (403), and, for a person who must enrol in TOTP and has not, every
 * route but guest ones and those declared `whileEnrolling` (403 TOTP_ENROLMENT_REQUIRED).
 * The handler reads `request.console`.
 */
export function consoleGuard(deps: {
  store: Store;
  clock: Clock;
  limits: SessionLimits;
  /** The console's own origin (NOK_PUBLIC_URL's); default each request's protocol://Host. */
  origin?: string;
}) {
  return async (request: FastifyRequest, reply: FastifyReply, access: ConsoleAccess) => {
    const { role } = access;
    const id = sessionCookie(request);
    const anonymousToken = id ? anonymousCsrfToken(id) : null;
    const live =
      id && !anonymousToken
        ? await resolveSession(deps.store, id, deps.limits, deps.clock.now())
        : null;
    // A cookie naming no live session is dropped, so the browser stops sending it.
    if (id && !anonymousToken && !live) clearSessionCookie(request, reply);
    const account =
      live?.user?.accountId != null ? await deps.store.findAccount(live.user.accountId) : null;
    request.console = anonymousToken
      ? { sessionId: null, csrfToken: anonymousToken, user: null }
      : live
        ? {
            sessionId: live.session.idHash,
            csrfToken: live.session.csrfToken,
            user: live.user ? toConsoleUser(live.user, account) : null,
          }
        : null;
    const user = request.console?.user ?? null;
    if (role !== 'guest' && !user) {
      throw new DomainError('UNAUTHORIZED', 'Sign in first; the session is missing or has expired');
    }
    if (!SAFE_METHODS.has(request.method)) {
      checkCsrf(request, request.console, deps.origin ?? `${request.protocol}://${request.host}`);
    }
    if (role === 'guest' || !user) return;
    if (!ADMITTED[role].includes(user.role)) {
      throw new DomainError('FORBIDDEN', `This needs a signed-in ${role}`);
    }
    if (mustEnrol(user) && !('whileEnrolling' in access && access.whileEnrolling)) {
      throw new DomainError(
        'TOTP_ENROLMENT_REQUIRED',
        'Set up two-factor sign-in on your profile page first',
      );
    }
    // A suspended account's people can still sign in and out, but not act for the account.
    if ((role === 'member' || role === 'owner') && user.accountId !== null) {
      if (account?.status !== 'active') {
        throw new DomainError(
          'ACCOUNT_SUSPENDED',
          'This account is suspended: ask the platform to reactivate it',
        );
      }
    }
  };
}

/**
 * A state change must come from the console's own pages: the browser says so (Origin equal to
 * `ours`, Sec-Fetch-Site `same-origin`; at least one of them, every one present must agree),
 * and the request carries the CSRF token of its own session, which another site cannot read.
 * `ours` is NOK_PUBLIC_URL's origin when it is set: behind a proxy the Host a request names may
 * not be the one the browser used, and whoever sends a request writes its Host.
 */
function checkCsrf(request: FastifyRequest, context: ConsoleContext | null, ours: string): void {
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin === undefined && fetchSite === undefined) {
    throw new DomainError('CSRF_FAILED', 'The request does not say where it comes from');
  }
  if (fetchSite !== undefined && fetchSite !== 'same-origin') {
    throw new DomainError('CSRF_FAILED', 'The request comes from another site');
  }
  if (origin !== undefined && !sameOrigin(origin, ours)) {
    throw new DomainError('CSRF_FAILED', 'The request comes from another origin');
  }
  const token = request.headers[CSRF_HEADER];
  if (!context)
    throw new DomainError('CSRF_FAILED', 'No session: read GET /console/api/session first');
  if (typeof token !== 'string' || !tokensEqual(token, context.csrfToken)) {
    throw new DomainError('CSRF_FAILED', 'The CSRF token is missing or not this session’s');
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return request.server.parseCookie(header)[SESSION_COOKIE];
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/console',
    httpOnly: true,
    sameSite: 'lax' as const,
    // request.protocol honours X-Forwarded-Proto only under NOK_TRUST_PROXY (app.ts).
    secure: request.protocol === 'https',
  };
}

/** Hands the browser a session's id (after sign-in, sign-out, or the first visit). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(request));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
