import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireAccount } from '../accounts/require-account.js';
import type { ConsoleLinks } from '../mail/console-links.js';
import { mailForInvitation } from '../mail/mail-texts.js';
import { DomainError } from '../errors.js';
import { requireInvitation, type SentInvitation } from './invite-person.js';
import { newOneTimeToken } from './one-time-token.js';
import type { Invitation, PeopleStore } from './people-store.js';
import type { UserStore } from './user-store.js';

interface InvitationAction {
  readonly invitationId: number;
  /** The owner's account; null for a platform admin, who may act on any. */
  readonly accountId: number | null;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

/**
 * Mails an open invitation again with a new token and a new expiry (an expired one too): the
 * link sent before names nothing any more.
 */
export async function resendInvitation(
  store: Transactor<AccountStore & UserStore & PeopleStore & AuditStore>,
  input: InvitationAction & { links: ConsoleLinks; lifetimeMs: number },
): Promise<SentInvitation> {
  const { token, tokenHash } = newOneTimeToken();
  return store.transaction(async (tx) => {
    const current = await requireInvitation(tx, input.invitationId, input.accountId);
    const account = await requireAccount(tx, current.accountId);
    const invitation = await tx.renewInvitation(current.id, {
      tokenHash,
      nowMs: input.nowMs,
      expiresAt: input.nowMs + input.lifetimeMs,
    });
    if (!invitation) {
      throw new DomainError('INVALID_TRANSITION', 'This invitation has been accepted already');
    }
    await recordAudit(tx, {
      ...input.actor,
      accountId: invitation.accountId,
      action: 'invitation.resend',
      targetType: 'invitation',
      targetId: invitation.id,
      detail: { email: invitation.email, role: invitation.role },
      at: input.nowMs,
    });
    return {
      invitation,
      mail: mailForInvitation({
        to: invitation.email,
        hasSignIn: (await tx.findUserByEmail(invitation.email)) !== null,
        accountName: account.name,
        role: invitation.role,
        link: input.links.invitation(token),
        lifetimeMs: input.lifetimeMs,
      }),
    };
  });
}

/** Revokes an open invitation: it is deleted, so its link names nothing. */
export async function revokeInvitation(
  store: Transactor<PeopleStore & AuditStore>,
  input: InvitationAction,
): Promise<Invitation> {
  return store.transaction(async (tx) => {
    const invitation = await requireInvitation(tx, input.invitationId, input.accountId);
    if (invitation.usedAt !== null) {
      throw new DomainError(
        'INVALID_TRANSITION',
        'This invitation has been accepted; remove the person instead',
      );
    }
    await tx.deleteInvitation(invitation.id);
    await recordAudit(tx, {
      ...input.actor,
      accountId: invitation.accountId,
      action: 'invitation.revoke',
      targetType: 'invitation',
      targetId: invitation.id,
      detail: { email: invitation.email, role: invitation.role },
      at: input.nowMs,
    });
    return invitation;
  });
}
