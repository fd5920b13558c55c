import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/**
 * Table types for Kysely. Timestamps are integer milliseconds since the epoch on both engines.
 *
 * Money is written by `change-balance.ts` alone (ADR 0031): `accounts.balance` can be read but
 * neither inserted nor updated through these types, and `credit_ledger` is not one of them, so
 * no handle typed with them can insert, update or delete a ledger row. Reads of the ledger go
 * through `fromLedger`.
 */
export interface Tables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  senders: SendersTable;
  sender_shares: SenderSharesTable;
  templates: TemplatesTable;
  contact_groups: ContactGroupsTable;
  contacts: ContactsTable;
  blocklist: BlocklistTable;
  messages: MessagesTable;
  message_recipient_lists: MessageRecipientListsTable;
  recipient_lists: RecipientListsTable;
  message_counts: MessageCountsTable;
  recipients: RecipientsTable;
  idempotency_keys: IdempotencyKeysTable;
  dispatch_chunks: DispatchChunksTable;
  submissions: SubmissionsTable;
  orphan_receipts: OrphanReceiptsTable;
  sender_requests: SenderRequestsTable;
  sender_request_events: SenderRequestEventsTable;
  sender_documents: SenderDocumentsTable;
  nok_migrations: MigrationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  audit_events: AuditEventsTable;
  sign_in_throttles: SignInThrottlesTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  delivery_figures: DeliveryFiguresTable;
  dispatcher_statuses: DispatcherStatusesTable;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  /** Starts at the column's default, 0; only `changeBalance` moves it. */
  balance: ColumnType<number, never, never>;
  price_per_part: number;
  rate_limit_requests: number | null;
  next_ref_no: number;
  status: string;
  created_at: number;
  /** 1: every person of the account must sign in with a second factor. */
  require_totp: Generated<number>;
  /** The console warns below this balance; 0: never. */
  low_balance_threshold: Generated<number>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface SendersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  status: string;
  note: string | null;
  created_at: number;
  updated_at: number;
}

export interface SenderSharesTable {
  sender_id: number;
  account_id: number;
  created_at: number;
}

export interface TemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  body: string;
  created_at: number;
}

export interface ContactGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
  /** 1 once a member not in the 66XXXXXXXXX form was stored: counted by reading it. */
  irregular_members: Generated<number>;
}

export interface ContactsTable {
  group_id: number;
  msisdn: string;
}

export interface BlocklistTable {
  /** 0 means platform-wide. */
  scope_account_id: number;
  msisdn: string;
  created_at: number;
}

/** The columns of `credit_ledger`, as read. */
export interface CreditLedgerColumns {
  id: number;
  account_id: number;
  delta: number;
  reason: string;
  message_id: number | null;
  balance_after: number;
  note: string | null;
  created_at: number;
}

/** `credit_ledger` as readers see it: every column selectable, none insertable or updatable. */
export type ReadOnlyCreditLedgerTable = {
  [K in keyof CreditLedgerColumns]: ColumnType<CreditLedgerColumns[K], never, never>;
};

export interface MessagesTable {
  id: Generated<number>;
  uuid: string;
  account_id: number;
  api_key_id: number | null;
  ref_no: string;
  sender: string;
  content: string;
  parts: number;
  status: string;
  scheduled_at: number | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  requested_count: number;
  duplicate_count: number;
  recipient_total: number;
  valid_count: number;
  invalid_count: number;
  blocked_count: number;
  charged_count: number;
  price_per_part: number;
  cost: number;
  /** Recipient rows exist for seq <= materialised_upto. */
  materialised_upto: number;
  /** Seqs up to this one have been handed to dispatch chunks. */
  dispatch_upto: Generated<number>;
  /** 1 once a carrier accepted a part of this message. */
  any_accepted: Generated<number>;
}

export interface MessageRecipientListsTable {
  message_id: number;
  /** Packed little-endian uint32 national suffixes of the valid numbers, in seq order. */
  numbers: Buffer;
  /** JSON array of the seqs (1-based) of valid numbers that are blocklisted. */
  blocked_seqs: string;
  /** JSON array of the invalid strings; they take the seqs after the valid numbers. */
  invalid_numbers: string;
}

/** Numbers uploaded from the console, kept until sent or expired (docs/adr/0034). */
export interface RecipientListsTable {
  id: Generated<number>;
  uuid: string;
  account_id: number;
  /** As message_recipient_lists.numbers: packed little-endian uint32 suffixes. */
  numbers: Buffer;
  /** As message_recipient_lists.invalid_numbers: a JSON array of the invalid strings. */
  invalid_numbers: string;
  requested_count: number;
  duplicate_count: number;
  created_at: number;
  expires_at: number;
}

export interface MessageCountsTable {
  message_id: number;
  status: string;
  count: number;
}

export interface RecipientsTable {
  message_id: number;
  seq: number;
  msisdn: string;
  status: string;
  attempts: number;
  error: string | null;
  updated_at: number;
  /** Bit mask of the parts a carrier accepted. */
  parts_accepted: Generated<number>;
  /** Bit mask of the parts reported delivered. */
  parts_delivered: Generated<number>;
  next_attempt_at: Generated<number>;
  first_attempt_at: number | null;
}

export interface DispatchChunksTable {
  message_id: number;
  first_seq: number;
  last_seq: number;
  due_at: number;
  lease_owner: string | null;
  lease_expires_at: number;
}

export interface SubmissionsTable {
  carrier: string;
  smsc_id: string;
  message_id: number;
  seq: number;
  part: number;
  submitted_at: number;
}

export interface OrphanReceiptsTable {
  carrier: string;
  smsc_id: string;
  outcome: string;
  error: string | null;
  received_at: number;
}

export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  request_hash: string;
  response_body: string | null;
  message_id: number | null;
  created_at: number;
}

export interface SenderRequestsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  purpose: string;
  /** JSON array of strings. */
  sample_messages: string;
  registration_number: string;
  status: string;
  sender_id: number | null;
  created_at: number;
  updated_at: number;
  /** Set when approved or rejected; NULL while the request is open. */
  decided_at: number | null;
}

export interface SenderRequestEventsTable {
  id: Generated<number>;
  request_id: number;
  step: string;
  actor_user_id: number | null;
  note: string | null;
  created_at: number;
}

export interface SenderDocumentsTable {
  id: Generated<number>;
  request_id: number;
  event_id: number;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  content: Buffer;
  created_at: number;
}

export interface MigrationsTable {
  id: number;
  name: string;
  applied_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  role: string;
  account_id: number | null;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: number | null;
  recovery_codes: string | null;
  totp_last_step: number | null;
  status: Generated<string>;
  time_zone: string | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number | null;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  ip: string | null;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: number;
  actor_user_id: number | null;
  account_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: string;
  ip: string | null;
}

/** One throttle counter: the attempts of `scope` in the window that ends at `expires_at`. */
export interface SignInThrottlesTable {
  scope: string;
  expires_at: number;
  attempts: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  email: string;
  name: string;
  role: string;
  account_id: number | null;
  invited_by: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Dispatchers' figures per UTC hour and carrier, added up across processes (ADR 0030). */
export interface DeliveryFiguresTable {
  hour_start: number;
  carrier: string;
  figure: string;
  label: string;
  count: number;
}

/** Each dispatcher process's operator status, as it last wrote it (ADR 0035). */
export interface DispatcherStatusesTable {
  owner: string;
  started_at: number;
  written_at: number;
  /** JSON: the process's DeliveryStatus (src/ops/ops-status.ts). */
  status: string;
}

export type Db = Kysely<Tables> | Transaction<Tables>;
export type MessageRow = Selectable<MessagesTable>;
export type NewMessageRow = Insertable<MessagesTable>;
export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SenderRow = Selectable<SendersTable>;
export type SenderRequestRow = Selectable<SenderRequestsTable>;
export type SenderRequestEventRow = Selectable<SenderRequestEventsTable>;
export type SenderDocumentRow = Selectable<SenderDocumentsTable>;
export type UserRow = Selectable<UsersTable>;
