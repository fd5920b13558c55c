import type { FastifyPluginAsync } from 'fastify';
import { requireAccount } from '../../../domain/accounts/require-account.js';
import { revokeInvitation } from '../../../domain/users/manage-invitation.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { mailedInvitations } from '../mailed-invitations.js';
import { auditActor } from '../console-session.js';
import { peopleOf, presentInvitation } from '../people-presenters.js';

const admin = { access: { role: 'admin' } } as const;
const tags = ['admin'];

/** Platform admins see any account's people and invite its owner (right after creating it). */
export const adminPeopleRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock, people } = deps;
  const invitations = mailedInvitations(store, people);

  consoleRoute(
    app,
    'GET /admin/accounts/:accountId/users',
    {
      tags,
      summary: "An account's people and open invitations",
      config: admin,
    },
    async (request) => {
      const account = await requireAccount(store, request.params.accountId);
      return peopleOf(store, account.id, clock.now());
    },
  );

  consoleRoute(
    app,
    'POST /admin/accounts/:accountId/invitations',
    {
      tags,
      summary: "Invite an account's owner by email (or a member, when `role` says so)",
      description:
        'Mails a one-time link that expires. The answer is the same whoever the email is: one that already has a sign-in on Nok is invited alike and mailed a notice without a link.',
      config: admin,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await invitations.invite({
        accountId: request.params.accountId,
        email: request.body.email,
        name: request.body.name,
        role: request.body.role,
        nowMs,
        actor: auditActor(request),
      });
      return presentInvitation(invitation, nowMs);
    },
  );

  consoleRoute(
    app,
    'POST /admin/invitations/:invitationId/resend',
    {
      tags,
      summary: 'Mail an invitation again, with a new link and a new expiry',
      config: admin,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await invitations.resend({
        invitationId: request.params.invitationId,
        accountId: null,
        nowMs,
        actor: auditActor(request),
      });
      return presentInvitation(invitation, nowMs);
    },
  );

  consoleRoute(
    app,
    'DELETE /admin/invitations/:invitationId',
    {
      tags,
      summary: 'Revoke an invitation',
      config: admin,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await revokeInvitation(store, {
        invitationId: request.params.invitationId,
        accountId: null,
        nowMs,
        actor: auditActor(request),
      });
      return presentInvitation(invitation, nowMs);
    },
  );
};
