export const MESSAGE_STATUSES = ['sent', 'failed', 'pending', 'scheduled', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const RECIPIENT_STATUSES = [
  'pending',
  'success',
  'failed',
  'invalid',
  'blocked',
  'expired',
  'timeout',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Statuses a recipient never leaves. */
export const FINAL_RECIPIENT_STATUSES: ReadonlySet<RecipientStatus> = new Set([
  'success',
  'failed',
  'invalid',
  'blocked',
  'expired',
  'timeout',
]);

export const SENDER_STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

export const API_KEY_SCOPES = ['*', 'sms:send', 'sms:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
