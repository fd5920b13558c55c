import type { Transactor } from '../transactor.js';
import type { UserStore } from './user-store.js';
import type { SessionStore } from './session-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { Account, AccountStore } from '../accounts/account-store.js';
import { hashOneTimeToken, isTokenShaped } from './one-time-token.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords.js';
import type { Invitation, PeopleStore } from './people-store.js';
import { startSession } from './sessions.js';
import type { SessionRecord, User } from './user.js';

const NOT_VALID =
  'This invitation link is not valid: it was revoked, replaced by a newer one, or copied wrong. Ask for a new invitation.';

/**
 * The open invitation a mailed token names. Unknown (revoked, re-sent, mistyped) is NOT_FOUND;
 * accepted already is LINK_USED; past its expiry is LINK_EXPIRED; each says what to do next.
 */
export async function openInvitation(
  store: AccountStore & PeopleStore,
  token: string,
  nowMs: number,
): Promise<{ invitation: Invitation; account: Account }> {
  const invitation = isTokenShaped(token)
    ? await store.findInvitationByTokenHash(hashOneTimeToken(token))
    : null;
  const account = invitation ? await store.findAccount(invitation.accountId) : null;
  if (!invitation || !account) throw new DomainError('NOT_FOUND', NOT_VALID);
  if (invitation.usedAt !== null) {
    throw new DomainError(
      'LINK_USED',
      'This invitation has been accepted already: sign in, or reset your password if you forgot it.',
    );
  }
  if (invitation.expiresAt <= nowMs) {
    throw new DomainError(
      'LINK_EXPIRED',
      'This invitation has expired. Ask the person who invited you to send it again.',
    );
  }
  return { invitation, account };
}

export function checkNewPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw invalidParameter(`a password has at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/**
 * Accepts an invitation: creates the person with the invitation's account and role, their name
 * and password, uses the token up and signs them in with a new session, in one transaction
 * with its audit line. `replacesSession` (the anonymous session the page came with) is ended.
 */
export async function acceptInvitation(
  store: AccountStore &
    PeopleStore &
    Transactor<AccountStore & UserStore & SessionStore & PeopleStore & AuditStore>,
  input: {
    token: string;
    name: string;
    password: string;
    ip: string | null;
    nowMs: number;
    replacesSession?: string;
  },
): Promise<{ user: User; sessionId: string; session: SessionRecord }> {
  const name = input.name.trim();
  if (name.length === 0) throw invalidParameter('write your name');
  checkNewPassword(input.password);
  await openInvitation(store, input.token, input.nowMs);
  const passwordHash = await hashPassword(input.password);
  return store.transaction(async (tx) => {
    const { invitation } = await openInvitation(tx, input.token, input.nowMs);
    if (await tx.findUserByEmail(invitation.email)) {
      throw new DomainError(
        'EMAIL_TAKEN',
        `${invitation.email} already has a sign-in on Nok: sign in with it instead`,
      );
    }
    if (!(await tx.useInvitation(invitation.id, input.nowMs))) {
      throw new DomainError('LINK_USED', 'This invitation has been accepted already');
    }
    const user = await tx.createUser({
      email: invitation.email,
      name,
      role: invitation.role,
      accountId: invitation.accountId,
      passwordHash,
      nowMs: input.nowMs,
    });
    if (input.replacesSession) await tx.deleteSession(input.replacesSession);
    const { id, session } = await startSession(tx, {
      userId: user.id,
      ip: input.ip,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      actorUserId: user.id,
      accountId: user.accountId,
      action: 'invitation.accept',
      targetType: 'user',
      targetId: user.id,
      detail: { email: user.email, role: user.role, invitationId: invitation.id },
      ip: input.ip,
      at: input.nowMs,
    });
    return { user, sessionId: id, session };
  });
}
