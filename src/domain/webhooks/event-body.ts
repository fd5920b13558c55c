import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from './event-types.js';

/** A new event id, as Standard Webhooks shows them: `msg_` and 22 url-safe characters. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** An event's body, `{ type, timestamp, data }`: the exact text signed and posted. */
export function eventBody(type: WebhookEventType, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}
