/** The webhook event types, in the order the console and the document list them. */
export const WEBHOOK_EVENT_TYPES = [
  'recipients.final',
  'message.completed',
  'message.released',
  'message.cancelled',
  'sender.reviewed',
  'balance.low',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
