import type { Store } from '../../domain/store.js';
import { invitePerson } from '../../domain/users/invite-person.js';
import { resendInvitation } from '../../domain/users/manage-invitation.js';
import type { PeopleDeps } from './console-deps.js';

type Mailed<I> = Omit<I, 'links' | 'lifetimeMs'>;

/**
 * Inviting and re-sending as the owner's and the admin's routes both do it: links on the
 * configured public URL, the invitation lifetime of the settings, and the mail posted once the
 * change has committed. The routes differ only in who may call them and which account they act on.
 */
export function mailedInvitations(store: Store, people: PeopleDeps) {
  const settings = { links: people.links, lifetimeMs: people.lifetimes.invitationMs };
  return {
    async invite(input: Mailed<Parameters<typeof invitePerson>[1]>) {
      const { invitation, mail } = await invitePerson(store, { ...input, ...settings });
      people.outbox.post(mail);
      return invitation;
    },
    async resend(input: Mailed<Parameters<typeof resendInvitation>[1]>) {
      const { invitation, mail } = await resendInvitation(store, { ...input, ...settings });
      people.outbox.post(mail);
      return invitation;
    },
  };
}
