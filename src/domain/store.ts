import type { AccountLock, AccountStore } from './accounts/account-store.js';
import type { ApiKeyStore } from './accounts/api-key-store.js';
import type { AuditStore } from './audit/audit-store.js';
import type { BlocklistStore } from './contacts/blocklist-store.js';
import type { ContactsStore } from './contacts/contacts-store.js';
import type { BalanceWriter, LedgerStore } from './credits/ledger-store.js';
import type { DashboardStore } from './dashboard/dashboard-store.js';
import type { IdempotencyStore } from './messages/idempotency-store.js';
import type { MessageStore } from './messages/message-store.js';
import type { RecipientListsStore } from './recipients/recipient-lists-store.js';
import type { RecipientStore } from './recipients/recipient-store.js';
import type { SenderRequestStore } from './senders/sender-request-store.js';
import type { SenderStore } from './senders/sender-store.js';
import type { TemplateStore } from './templates/template-store.js';
import type { Transactor } from './transactor.js';
import type { WebhookQueueStore } from './webhooks/webhook-store.js';
import type { AttemptStore } from './users/attempt-store.js';
import type { PeopleStore } from './users/people-store.js';
import type { SessionStore } from './users/session-store.js';
import type { UserStore } from './users/user-store.js';

/**
 * Every area's store in one, as storage builds it (storage/store.ts) and the composition root
 * hands it to the API, the command line and the scheduler. A use case never takes it whole: it
 * declares the area ports it uses (e.g. `MessageStore & Transactor<MessageStore &
 * BalanceWriter>`), which this satisfies.
 *
 * A plain Store cannot change a balance: `changeBalance` exists only on the
 * {@link TransactionStore} that `transaction` hands to its `work` (ADR 0031).
 */
export interface Store
  extends
    AccountStore,
    ApiKeyStore,
    LedgerStore,
    SenderStore,
    SenderRequestStore,
    TemplateStore,
    ContactsStore,
    BlocklistStore,
    MessageStore,
    IdempotencyStore,
    RecipientStore,
    RecipientListsStore,
    UserStore,
    SessionStore,
    AttemptStore,
    PeopleStore,
    AuditStore,
    DashboardStore,
    WebhookQueueStore,
    Transactor<TransactionStore> {}

/**
 * The store bound to one transaction, as `Store.transaction` hands it to its `work`: the only
 * place a balance can change or an account be locked. Once `work` has settled it refuses further
 * balance changes, so a store kept past its transaction cannot write one outside it either.
 */
export interface TransactionStore extends Store, BalanceWriter, AccountLock {}
