import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../domain/store.js';
import type { SessionLimits } from '../../domain/users/sessions.js';
import type { SignInLimits } from '../../domain/users/sign-in-limits.js';
import type { ConsoleLinks } from '../../domain/mail/console-links.js';
import type { Outbox } from '../../domain/mail/mailer.js';
import type { LinkLifetimes } from '../../domain/users/invite-person.js';
import type { PasswordResetLimits } from '../../domain/users/password-reset.js';
import type { DispatchersView } from '../../domain/delivery/status-board.js';
import type { CompactListCache } from '../../domain/recipients/compact-list-cache.js';

/** What every console route plugin is given. */
export interface ConsoleDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly sessionLimits: SessionLimits;
  readonly signInLimits: SignInLimits;
  /** The largest document of a sender-name request, each (NOK_SENDER_DOCUMENT_MAX_BYTES). */
  readonly senderDocumentMaxBytes: number;
  /** Every dispatcher's published status and the queue depth, for the carriers page. */
  readonly dispatchers: DispatchersView;
  /** Mail and the links it carries: invitations, password resets, sender decisions. */
  readonly people: PeopleDeps;
  /** Told of each send accepted from the console: wakes the background work, counts metrics. */
  readonly onAccepted?: (charged: number) => void;
  /** The compact recipient lists this process pages through (shared with /api/v2). */
  readonly compactLists: CompactListCache;
  /** How long a rotated webhook secret still signs beside the new one (NOK_WEBHOOK_SECRET_OVERLAP_HOURS). */
  readonly webhookSecretOverlapMs: number;
}

export interface PeopleDeps {
  /** Mail posted once its change has committed. */
  readonly outbox: Outbox;
  /** Links on NOK_PUBLIC_URL, never on a request's Host. */
  readonly links: ConsoleLinks;
  readonly lifetimes: LinkLifetimes;
  readonly resetLimits: PasswordResetLimits;
}
