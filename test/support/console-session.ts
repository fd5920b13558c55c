/**
 * Signing people in to the console API for tests, through the real routes: a user of a role is
 * created in the harness's store with a known password, then signs in with
 * `POST /console/api/session` as a browser would (its anonymous session first, the CSRF token,
 * our own Origin). The actor's `request` sends the session cookie, the token and the Origin.
 */
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Account } from '../../src/domain/accounts/account-store.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { startSession } from '../../src/domain/users/sessions.js';
import { totpCode } from '../../src/domain/users/totp.js';
import type { User, UserRole } from '../../src/domain/users/user.js';
import type { Harness } from './harness.js';

export const TEST_PASSWORD = 'correct horse battery staple';
/** The TOTP secret of test people enrolled in two-factor sign-in (admins, by default). */
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** The Origin of the app under `inject` (its default Host is localhost:80). */
export const CONSOLE_ORIGIN = 'http://localhost';

let userCounter = 0;
let hashed: Promise<string> | null = null;

/** A signed-in console session: its cookie and CSRF token. */
export interface ConsoleSession {
  readonly cookie: string;
  readonly csrfToken: string;
}

export interface ConsoleActor extends ConsoleSession {
  readonly user: User;
  /** The user's account; null for an admin. */
  readonly account: Account | null;
  /** Headers of this session: cookie, CSRF token, Origin. */
  headers(): Record<string, string>;
  /** A console API request in this session (the path under /console/api, or a full URL). */
  request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
}

/**
 * A user of `role` with `TEST_PASSWORD`. An owner or member gets `account` (a new account when
 * none is given); an admin gets none. With `totp` (the default for admins, who must have it)
 * they are enrolled with `TEST_TOTP_SECRET`, and `signIn` gives the code.
 */
export async function createConsoleUser(
  h: Harness,
  role: UserRole,
  options: { account?: Account; email?: string; name?: string; totp?: boolean } = {},
): Promise<{ user: User; account: Account | null }> {
  const account = role === 'admin' ? null : (options.account ?? (await h.account()));
  hashed ??= hashPassword(TEST_PASSWORD);
  const user = await h.store.createUser({
    email: options.email ?? `${role}${++userCounter}@example.test`,
    name: options.name ?? `Test ${role} ${userCounter}`,
    role,
    accountId: account?.id ?? null,
    passwordHash: await hashed,
    nowMs: h.clock.now(),
  });
  if (!(options.totp ?? role === 'admin')) return { user, account };
  const enrolled = await h.store.updateUser(
    user.id,
    { totpSecret: TEST_TOTP_SECRET, totpEnabledAt: h.clock.now() },
    h.clock.now(),
  );
  return { user: enrolled!, account };
}

/** Reads the session cookie a response set (the last one, as a browser keeps). */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.filter((c) => c.name === 'nok_session').at(-1);
  return cookie ? `nok_session=${cookie.value}` : undefined;
}

/** An anonymous session, as `GET /console/api/session` gives a first visit. */
export async function anonymousSession(h: Harness): Promise<ConsoleSession> {
  const response = await h.app.inject({ method: 'GET', url: '/console/api/session' });
  assert.equal(response.statusCode, 200, response.body);
  const cookie = sessionCookieOf(response);
  assert.ok(cookie, 'GET /console/api/session set no session cookie');
  return { cookie, csrfToken: (response.json() as { csrfToken: string }).csrfToken };
}

/**
 * The code a person enrolled in TOTP signs in with now, on the harness's clock. The step it
 * belongs to is forgotten first, so the same person can sign in again within one step of the
 * fake clock (the replay rule is tested on its own).
 */
export async function currentTotpCode(h: Harness, user: User): Promise<string | undefined> {
  const found = await h.store.findUser(user.id);
  if (!found?.totpSecret || found.totpEnabledAt === null) return undefined;
  await h.store.updateUser(found.id, { totpLastStep: null }, h.clock.now());
  return totpCode(found.totpSecret, h.clock.now());
}

/** Signs in through the API as a browser would (with a TOTP code if enrolled); asserts it worked. */
export async function signIn(
  h: Harness,
  email: string,
  password = TEST_PASSWORD,
): Promise<ConsoleSession> {
  const anonymous = await anonymousSession(h);
  const user = await h.store.findUserByEmail(email.toLowerCase());
  const totpCode = user ? await currentTotpCode(h, user) : undefined;
  const response = await h.app.inject({
    method: 'POST',
    url: '/console/api/session',
    headers: sessionHeaders(anonymous),
    payload: { email, password, ...(totpCode && { totpCode }) },
  });
  assert.equal(response.statusCode, 200, response.body);
  const cookie = sessionCookieOf(response);
  assert.ok(cookie, 'sign-in set no session cookie');
  return { cookie, csrfToken: (response.json() as { csrfToken: string }).csrfToken };
}

export function sessionHeaders(session: ConsoleSession): Record<string, string> {
  return { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: CONSOLE_ORIGIN };
}

/** A signed-in user of `role` with helpers to call the console API as them. */
export async function consoleActor(
  h: Harness,
  role: UserRole,
  options: { account?: Account } = {},
): Promise<ConsoleActor> {
  const { user, account } = await createConsoleUser(h, role, options);
  const session = await signIn(h, user.email);
  return actorOf(h, user, account, session);
}

export function actorOf(
  h: Harness,
  user: User,
  account: Account | null,
  session: ConsoleSession,
): ConsoleActor {
  return {
    user,
    account,
    ...session,
    headers: () => sessionHeaders(session),
    request: ({ url, headers, ...rest }) =>
      h.app.inject({
        ...rest,
        url: url.startsWith('/') && !url.startsWith('/console') ? `/console/api${url}` : url,
        headers: { ...sessionHeaders(session), ...headers },
      }),
  };
}

/**
 * A new signed-in session of `user` written straight to the store, without the sign-in route
 * (no password check, no audit line): for suites that need many fresh sessions quickly.
 */
export async function sessionOf(h: Harness, user: User): Promise<ConsoleSession> {
  const { id, session } = await startSession(h.store, {
    userId: user.id,
    ip: '127.0.0.1',
    nowMs: h.clock.now(),
  });
  return { cookie: `nok_session=${id}`, csrfToken: session.csrfToken };
}
