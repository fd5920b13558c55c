import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '../../../domain/audit/record-audit.js';
import { startSession } from '../../../domain/users/sessions.js';
import { checkPassword } from '../../../domain/users/sign-in.js';
import { errorResponses } from '../contract/common.js';
import { sessionSchema, signInBodySchema } from '../contract/session.js';
import type { ConsoleDeps } from '../console-api.js';
import { consoleUser, setSessionCookie, toConsoleUser } from '../console-session.js';

const guest = { access: { role: 'guest' } } as const;
const signedIn = { access: { role: 'user' } } as const;
const tags = ['session'];

/** Who is signed in, signing in and out. Every answer is the session as the browser now has it. */
export const sessionRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  /** A fresh anonymous session in the cookie: after sign-out, or on a first visit. */
  async function anonymous(
    request: Parameters<typeof setSessionCookie>[0],
    reply: Parameters<typeof setSessionCookie>[1],
  ) {
    const { id, session } = await startSession(store, {
      userId: null,
      ip: request.ip,
      nowMs: clock.now(),
    });
    setSessionCookie(request, reply, id);
    return { user: null, csrfToken: session.csrfToken };
  }

  app.get(
    '/session',
    {
      schema: {
        tags,
        summary: 'Who is signed in, and the CSRF token of this session',
        description:
          'Starts an anonymous session (cookie `nok_session`) when the browser has none, so the sign-in form has a CSRF token to send.',
        response: { 200: sessionSchema, ...errorResponses },
      },
      config: guest,
    },
    async (request, reply) => {
      const current = request.console;
      if (current) return { user: current.user, csrfToken: current.csrfToken };
      return anonymous(request, reply);
    },
  );

  app.post(
    '/session',
    {
      schema: {
        tags,
        summary: 'Sign in',
        description:
          'A new session (id and CSRF token) replaces the one the request came with. Failures answer 401 with the same words whatever was wrong; too many answer 429.',
        body: signInBodySchema,
        response: { 200: sessionSchema, ...errorResponses },
      },
      config: guest,
    },
    async (request, reply) => {
      const nowMs = clock.now();
      const user = await checkPassword(
        store,
        { email: request.body.email, password: request.body.password, ip: request.ip, nowMs },
        deps.signInLimits,
      );
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
          ip: request.ip,
          at: nowMs,
        });
        return started;
      });
      setSessionCookie(request, reply, id);
      return { user: toConsoleUser(user), csrfToken: session.csrfToken };
    },
  );

  app.delete(
    '/session',
    {
      schema: {
        tags,
        summary: 'Sign out',
        description: 'Ends this session and starts an anonymous one.',
        response: { 200: sessionSchema, ...errorResponses },
      },
      config: signedIn,
    },
    async (request, reply) => {
      const user = consoleUser(request);
      const nowMs = clock.now();
      await store.transaction(async (tx) => {
        await tx.deleteSession(request.console!.sessionId);
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

  app.post(
    '/session/sign-out-everywhere',
    {
      schema: {
        tags,
        summary: 'Sign out of every browser',
        description:
          'Ends every session of the signed-in user, this one too, and starts an anonymous one.',
        response: { 200: sessionSchema, ...errorResponses },
      },
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
