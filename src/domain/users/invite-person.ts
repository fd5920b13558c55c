import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { UserStore } from './user-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireAccount } from '../accounts/require-account.js';
import type { ConsoleLinks } from '../mail/console-links.js';
import { mailForInvitation } from '../mail/mail-texts.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { DomainError, invalidParameter } from '../errors.js';
import { newOneTimeToken } from './one-time-token.js';
import {
  INVITED_ROLES,
  type Invitation,
  type InvitedRole,
  type PeopleStore,
} from './people-store.js';
import { normaliseEmail } from './user.js';

/** How long the links Nok mails stay good (NOK_INVITATION_TTL_HOURS, NOK_PASSWORD_RESET_TTL_MINUTES). */
export interface LinkLifetimes {
  readonly invitationMs: number;
  readonly passwordResetMs: number;
}

export const DEFAULT_LINK_LIFETIMES: LinkLifetimes = {
  invitationMs: 7 * 24 * 3_600_000,
  passwordResetMs: 3_600_000,
};

/** What inviting and re-sending answer: the invitation, and the mail to post once committed. */
export interface SentInvitation {
  readonly invitation: Invitation;
  readonly mail: OutgoingMail;
}

/**
 * Invites `email` into an account as an owner or member: a one-time token (only its hash is
 * stored) mailed as a link that expires. The answer is the same whoever the email is, so an
 * owner cannot learn whether it has a sign-in anywhere on Nok: an email that has one is invited
 * alike, but mailed a notice without the link (a sign-in belongs to one account). An email with
 * an open invitation to this account is a 409 (ALREADY_INVITED: re-send that one instead).
 * Audited with the change.
 */
export async function invitePerson(
  store: Transactor<AccountStore & UserStore & PeopleStore & AuditStore>,
  input: {
    accountId: number;
    email: string;
    name?: string;
    role: InvitedRole;
    nowMs: number;
    actor: AuditActor;
    links: ConsoleLinks;
    lifetimeMs: number;
  },
): Promise<SentInvitation> {
  const email = normaliseEmail(input.email);
  if (!INVITED_ROLES.includes(input.role)) {
    throw invalidParameter(`role is one of ${INVITED_ROLES.join(', ')}`);
  }
  const { token, tokenHash } = newOneTimeToken();
  return store.transaction(async (tx) => {
    const account = await requireAccount(tx, input.accountId);
    // Whether the email has a sign-in changes the mail only, never the answer (ADR 0041).
    const hasSignIn = (await tx.findUserByEmail(email)) !== null;
    const open = (await tx.listOpenInvitations(account.id)).find((i) => i.email === email);
    if (open) {
      throw new DomainError(
        'ALREADY_INVITED',
        `${email} is already invited to this account; re-send or revoke that invitation`,
      );
    }
    const invitation = await tx.insertInvitation({
      accountId: account.id,
      email,
      name: input.name?.trim() ?? '',
      role: input.role,
      invitedBy: input.actor.actorUserId,
      tokenHash,
      nowMs: input.nowMs,
      expiresAt: input.nowMs + input.lifetimeMs,
    });
    await recordAudit(tx, {
      ...input.actor,
      accountId: account.id,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: invitation.id,
      detail: { email, role: input.role },
      at: input.nowMs,
    });
    return {
      invitation,
      mail: mailForInvitation({
        to: email,
        hasSignIn,
        accountName: account.name,
        role: input.role,
        link: input.links.invitation(token),
        lifetimeMs: input.lifetimeMs,
      }),
    };
  });
}

/**
 * An invitation the caller may act on: any for a platform admin (`accountId` null), only its
 * own account's for an owner (another account's is 403, as every customer route answers).
 */
export async function requireInvitation(
  store: PeopleStore,
  invitationId: number,
  accountId: number | null,
): Promise<Invitation> {
  const invitation = await store.findInvitation(invitationId);
  if (!invitation) {
    throw new DomainError('NOT_FOUND', `invitation ${invitationId} does not exist (any more)`);
  }
  if (accountId !== null && invitation.accountId !== accountId) {
    throw new DomainError('FORBIDDEN', 'This invitation belongs to another account');
  }
  return invitation;
}
