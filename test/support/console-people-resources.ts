// Path parameters and bodies of the people routes, for the console security suite: each
// factory makes a resource of `of`'s account, straight in the store (making it adds no audit
// line, which the suite counts around each call). Imported by the suite's test.
import { newOneTimeToken } from '../../src/domain/users/one-time-token.js';
import { CONSOLE_BODIES, CONSOLE_RESOURCES } from './console-security-suite.js';

let counter = 0;

CONSOLE_RESOURCES.invitationId = async (h, of) => {
  const invitation = await h.store.insertInvitation({
    accountId: of.account!.id,
    email: `suite-invited${++counter}@example.test`,
    name: '',
    role: 'member',
    invitedBy: of.user.id,
    tokenHash: newOneTimeToken().tokenHash,
    nowMs: h.clock.now(),
    expiresAt: h.clock.now() + 3_600_000,
  });
  return String(invitation.id);
};

/** A member of `of`'s account that may be removed. */
CONSOLE_RESOURCES.userId = async (h, of) => {
  const user = await h.store.createUser({
    email: `suite-member${++counter}@example.test`,
    name: 'Suite member',
    role: 'member',
    accountId: of.account!.id,
    passwordHash: null,
    nowMs: h.clock.now(),
  });
  return String(user.id);
};

CONSOLE_BODIES['POST /console/api/invitations'] = async () => ({
  email: `suite-invite${++counter}@example.test`,
  role: 'member',
});
CONSOLE_BODIES['POST /console/api/admin/accounts/:accountId/invitations'] = async () => ({
  email: `suite-owner${++counter}@example.test`,
});
