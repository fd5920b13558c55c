import type { FastifyPluginAsync } from 'fastify';
import { recordAudit } from '../../../domain/audit/record-audit.js';
import { startAnonymousSession, startSession } from '../../../domain/users/sessions.js';
import { checkSignIn } from '../../../domain/users/sign-in.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import {
  consoleSessionId,
  consoleUser,
  setSessionCookie,
  toConsoleUser,
} from '../console-session.js';

const guest = { access: { role: 'guest' } } as const;
/** Signing out is open to a session restricted until TOTP enrolment too. */
const signedIn = { access: { role: 'user', whileEnrolling: true } } as const;
const tags = ['session'];

/** Who is signed in, signing in and out. Every answer is the session as the browser now has it. */
export const sessionRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  /** A fresh anonymous session in the cookie (nothing stored): after sign-out, or on a first visit. */
  function anonymous(
    request: Parameters<typeof setSessionCookie>[0],
    reply: Parameters<typeof setSessionCookie>[1],
  ) {
    const { id, csrfToken } = startAnonymousSession();
    setSessionCookie(request, reply, id);
    return { user: null, csrfToken };
  }

  consoleRoute(
    app,
    'GET /session',
    {
      tags,
      summary: 'Who is signed in, and the CSRF token of this session',
      description:
        'Starts an anonymous session (cookie `nok_session`, nothing stored) when the browser has none, so the sign-in form has a CSRF token to send.',
      config: guest,
    },
    async (request, reply) => {
      const current = request.console;
      if (current) return { user: current.user, csrfToken: current.csrfToken };
      return anonymous(request, reply);
    },
  );

  consoleRoute(
    app,
    'POST /session',
    {
      tags,
      summary: 'Sign in',
      description:
        'A new session (id and CSRF token) replaces the one the request came with. Failures answer 401 with the same words whatever was wrong; too many answer 429. With TOTP in force, a right password without `totpCode`, or with a wrong or used one, answers 401 TOTP_REQUIRED (a wrong code counts as a failure). Someone who must use TOTP and has not enrolled gets a session restricted to enrolling.',
      config: guest,
    },
    async (request, reply) => {
      const nowMs = clock.now();
      const { user, secondFactor } = await checkSignIn(
        store,
        { ...request.body, ip: request.ip, nowMs },
        deps.signInLimits,
      );
      const account = user.accountId === null ? null : await store.findAccount(user.accountId);
      const previous = request.console?.sessionId;
      const { id, session } = await store.transaction(async (tx) => {
        if (previous) await tx.deleteSession(previous);
        const started = await startSession(tx, { userId: user.id, ip: request.ip, nowMs });
        await recordAudit(tx, {
          actorUserId: user.id,
          accountId: user.accountId,
          action: 'session.sign-in',
          targetType: 'user',
          targetId: user.id,
          detail: {
            factor: secondFactor?.method ?? 'password',
            ...(secondFactor?.method === 'recovery-code' && { codesLeft: secondFactor.codesLeft }),
          },
          ip: request.ip,
          at: nowMs,
        });
        return started;
      });
      setSessionCookie(request, reply, id);
      return { user: toConsoleUser(user, account), csrfToken: session.csrfToken };
    },
  );

  consoleRoute(
    app,
    'DELETE /session',
    {
      tags,
      summary: 'Sign out',
      description: 'Ends this session and starts an anonymous one.',
      config: signedIn,
    },
    async (request, reply) => {
      const user = consoleUser(request);
      const nowMs = clock.now();
      await store.transaction(async (tx) => {
        await tx.deleteSession(consoleSessionId(request));
        await recordAudit(tx, {
          actorUserId: user.id,
          accountId: user.accountId,
          action: 'session.sign-out',
          targetType: 'user',
          targetId: user.id,
          ip: request.ip,
          at: nowMs,
        });
      });
      return anonymous(request, reply);
    },
  );

  consoleRoute(
    app,
    'POST /session/sign-out-everywhere',
    {
      tags,
      summary: 'Sign out of every browser',
      description:
        'Ends every session of the signed-in user, this one too, and starts an anonymous one.',
      config: signedIn,
    },
    async (request, reply) => {
      const user = consoleUser(request);
      const nowMs = clock.now();
      await store.transaction(async (tx) => {
        const ended = await tx.deleteUserSessions(user.id);
        await recordAudit(tx, {
          actorUserId: user.id,
          accountId: user.accountId,
          action: 'session.sign-out-everywhere',
          targetType: 'user',
          targetId: user.id,
          detail: { sessionsEnded: ended },
          ip: request.ip,
          at: nowMs,
        });
      });
      return anonymous(request, reply);
    },
  );
};
