import type { FastifyPluginAsync } from 'fastify';
import { revokeInvitation } from '../../../domain/users/manage-invitation.js';
import { removeMember } from '../../../domain/users/remove-member.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { mailedInvitations } from '../mailed-invitations.js';
import { auditActor, consoleAccountId } from '../console-session.js';
import { peopleOf, presentInvitation, presentPerson } from '../people-presenters.js';

const owner = { access: { role: 'owner' } } as const;
const tags = ['people'];

/**
 * An owner's people: who is in the account, who is invited, inviting (by mail), re-sending and
 * revoking invitations, removing someone. Mail is posted once the change has committed.
 */
export const peopleRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock, people } = deps;
  const invitations = mailedInvitations(store, people);

  consoleRoute(
    app,
    'GET /users',
    {
      tags,
      summary: "The account's people and its open invitations",
      config: owner,
    },
    async (request) => peopleOf(store, consoleAccountId(request), clock.now()),
  );

  consoleRoute(
    app,
    'POST /invitations',
    {
      tags,
      summary: 'Invite a member or owner by email',
      description: `Mails a one-time link that expires. The answer is the same whoever the email is: one that already has a sign-in on Nok is invited alike and mailed a notice without a link (a sign-in belongs to one account). One already invited to this account answers 409 ALREADY_INVITED.`,
      config: owner,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await invitations.invite({
        accountId: consoleAccountId(request),
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
    'POST /invitations/:invitationId/resend',
    {
      tags,
      summary: 'Mail an invitation again, with a new link and a new expiry',
      description: 'The link mailed before stops working.',
      config: owner,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await invitations.resend({
        invitationId: request.params.invitationId,
        accountId: consoleAccountId(request),
        nowMs,
        actor: auditActor(request),
      });
      return presentInvitation(invitation, nowMs);
    },
  );

  consoleRoute(
    app,
    'DELETE /invitations/:invitationId',
    {
      tags,
      summary: 'Revoke an invitation: its link stops working',
      config: owner,
    },
    async (request) => {
      const nowMs = clock.now();
      const invitation = await revokeInvitation(store, {
        invitationId: request.params.invitationId,
        accountId: consoleAccountId(request),
        nowMs,
        actor: auditActor(request),
      });
      return presentInvitation(invitation, nowMs);
    },
  );

  consoleRoute(
    app,
    'DELETE /users/:userId',
    {
      tags,
      summary: 'Remove a person from the account',
      description:
        'Their sessions end at once. Nobody removes themselves (409 NOT_REMOVABLE), and the last owner stays (409 NOT_REMOVABLE).',
      config: owner,
    },
    async (request) => {
      const user = await removeMember(store, {
        userId: request.params.userId,
        accountId: consoleAccountId(request),
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return presentPerson(user);
    },
  );
};
