import type { FastifyPluginAsync } from 'fastify';
import { acceptInvitation, openInvitation } from '../../../domain/users/accept-invitation.js';
import {
  openPasswordReset,
  requestPasswordReset,
  resetPassword,
} from '../../../domain/users/password-reset.js';
import { errorBodySchema, errorResponses } from '../contract/common.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { setSessionCookie, toConsoleUser } from '../console-session.js';

const guest = { access: { role: 'guest' } } as const;
const tags = ['getting in'];
/** A link that was used or has expired answers 410 Gone with LINK_USED or LINK_EXPIRED. */
const linkErrors = { ...errorResponses, 410: errorBodySchema };

/*
 * The pages a mailed link opens, and "forgot password". Tokens travel in POST bodies (the
 * pages read them from the link's fragment), never in a URL a server or proxy would log.
 */
export const gettingInRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock, people } = deps;

  consoleRoute(
    app,
    'POST /invitation/look-up',
    {
      tags,
      summary: 'What an invitation link is for: the account, the email and the role',
      description:
        'Changes nothing. An unknown link (revoked, re-sent, mistyped) is 404; an accepted or expired one 410.',
      responses: linkErrors,
      config: guest,
    },
    async (request) => {
      const { invitation, account } = await openInvitation(store, request.body.token, clock.now());
      return {
        accountName: account.name,
        email: invitation.email,
        name: invitation.name,
        role: invitation.role,
        expiresAt: new Date(invitation.expiresAt).toISOString(),
      };
    },
  );

  consoleRoute(
    app,
    'POST /invitation/accept',
    {
      tags,
      summary: 'Accept an invitation: name and password; signs in',
      description:
        'Creates the person, uses the link up and answers a new signed-in session (a new id and CSRF token).',
      responses: linkErrors,
      config: guest,
    },
    async (request, reply) => {
      const { user, sessionId, session } = await acceptInvitation(store, {
        token: request.body.token,
        name: request.body.name,
        password: request.body.password,
        ip: request.ip,
        nowMs: clock.now(),
        replacesSession: request.console?.sessionId ?? undefined,
      });
      setSessionCookie(request, reply, sessionId);
      const account = user.accountId === null ? null : await store.findAccount(user.accountId);
      return { user: toConsoleUser(user, account), csrfToken: session.csrfToken };
    },
  );

  consoleRoute(
    app,
    'POST /password-reset/request',
    {
      tags,
      summary: 'Forgot password: mail a reset link',
      description:
        'Answers 202 the same whether or not the email has a sign-in; the link is mailed only when it does. Too many requests from one address answer 429.',
      config: guest,
    },
    async (request) => {
      const { mail } = await requestPasswordReset(store, {
        email: request.body.email,
        ip: request.ip,
        nowMs: clock.now(),
        links: people.links,
        lifetimeMs: people.lifetimes.passwordResetMs,
        limits: people.resetLimits,
      });
      if (mail) people.outbox.post(mail);
      return { accepted: true as const };
    },
  );

  consoleRoute(
    app,
    'POST /password-reset/look-up',
    {
      tags,
      summary: 'Whose password a reset link sets',
      description: 'Changes nothing. Unknown is 404; used or expired 410.',
      responses: linkErrors,
      config: guest,
    },
    async (request) => {
      const { reset, user } = await openPasswordReset(store, request.body.token, clock.now());
      return { email: user.email, expiresAt: new Date(reset.expiresAt).toISOString() };
    },
  );

  consoleRoute(
    app,
    'POST /password-reset/complete',
    {
      tags,
      summary: 'Set a new password by a reset link',
      description:
        'Uses the link up and ends every session of the person; they then sign in with the new password.',
      responses: linkErrors,
      config: guest,
    },
    async (request) => {
      const user = await resetPassword(store, {
        token: request.body.token,
        password: request.body.password,
        ip: request.ip,
        nowMs: clock.now(),
      });
      return { email: user.email };
    },
  );
};
