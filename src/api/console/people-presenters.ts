import type { Store } from '../../domain/store.js';
import type { Invitation as InvitationRecord } from '../../domain/users/people-store.js';
import type { User } from '../../domain/users/user.js';
import type { Invitation, People, Person } from './contract/people.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function presentPerson(user: User): Person {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.status,
    createdAt: iso(user.createdAt),
  };
}

export function presentInvitation(invitation: InvitationRecord, nowMs: number): Invitation {
  return {
    id: invitation.id,
    accountId: invitation.accountId,
    email: invitation.email,
    name: invitation.name,
    role: invitation.role,
    createdAt: iso(invitation.createdAt),
    expiresAt: iso(invitation.expiresAt),
    expired: invitation.expiresAt <= nowMs,
  };
}

/** The people of an account and its open invitations. */
export async function peopleOf(store: Store, accountId: number, nowMs: number): Promise<People> {
  const [users, invitations] = await Promise.all([
    store.listUsers({ accountId }),
    store.listOpenInvitations(accountId),
  ]);
  return {
    users: users.map(presentPerson),
    invitations: invitations.map((i) => presentInvitation(i, nowMs)),
  };
}
