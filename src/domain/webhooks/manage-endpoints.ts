// An account's webhook endpoints as owners (the console) and operators (`nok admin webhook`)
// manage them (docs/adr/0049). `accountId` null is an operator, who may act on any account's
// endpoint; an owner reaches only their own account's, and another's is FORBIDDEN (ADR 0004).
import type { AuditActor } from '../audit/audit-actor.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { Transactor } from '../transactor.js';
import { countCharacters } from '../limits.js';
import { eventBody, newEventId } from './event-body.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.js';
import type {
  WebhookDeliveryRecord,
  WebhookEndpoint,
  WebhookEndpointStore,
} from './webhook-store.js';
import { randomBytes } from 'node:crypto';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
export const MAX_URL_LENGTH = 2000;
export const MAX_DESCRIPTION_CHARS = 200;

type Store = WebhookEndpointStore & Transactor<WebhookEndpointStore & AuditStore>;

/** Who acts: an account's person (with the audit's actor), or an operator at a terminal. */
export interface WebhookActor {
  /** null: an operator, any account's endpoint. */
  readonly accountId: number | null;
  readonly audit?: AuditActor;
}

export interface EndpointFields {
  readonly url?: string;
  readonly description?: string;
  readonly eventTypes?: readonly string[];
  readonly enabled?: boolean;
}

/** A new endpoint secret: `whsec_` and 24 random bytes in base64 (192 bits). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export async function createWebhookEndpoint(
  store: Store,
  input: EndpointFields & { accountId: number; url: string; nowMs: number; audit?: AuditActor },
): Promise<WebhookEndpoint> {
  const url = checkUrl(input.url);
  const description = checkDescription(input.description ?? '');
  const eventTypes = checkEventTypes(input.eventTypes ?? []);
  return store.transaction(async (tx) => {
    const existing = await tx.listWebhookEndpoints(input.accountId);
    if (existing.length >= MAX_ENDPOINTS_PER_ACCOUNT) {
      throw invalidParameter(
        `an account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
      );
    }
    const endpoint = await tx.insertWebhookEndpoint({
      uuid: `ep_${randomBytes(12).toString('base64url')}`,
      accountId: input.accountId,
      url,
      description,
      eventTypes,
      enabled: input.enabled ?? true,
      secret: newWebhookSecret(),
      createdAt: input.nowMs,
      updatedAt: input.nowMs,
    });
    await audit(tx, input.audit, endpoint, 'webhook.create', { url }, input.nowMs);
    return endpoint;
  });
}

export async function listWebhookEndpoints(
  store: WebhookEndpointStore,
  accountId: number | null,
): Promise<WebhookEndpoint[]> {
  return store.listWebhookEndpoints(accountId);
}

export async function findWebhookEndpoint(
  store: WebhookEndpointStore,
  actor: WebhookActor,
  uuid: string,
): Promise<WebhookEndpoint> {
  const endpoint = await store.findWebhookEndpoint(uuid);
  if (!endpoint) throw new DomainError('NOT_FOUND', `webhook endpoint ${uuid} does not exist`);
  if (actor.accountId !== null && endpoint.accountId !== actor.accountId) {
    throw new DomainError('FORBIDDEN', `webhook endpoint ${uuid} belongs to another account`);
  }
  return endpoint;
}

/**
 * Changes an endpoint's fields. Enabling it clears why it was disabled and its failing time:
 * its deliveries still pending are posted again, and one that fails past its event's retry
 * window is given up.
 */
export async function updateWebhookEndpoint(
  store: Store,
  actor: WebhookActor,
  uuid: string,
  fields: EndpointFields,
  nowMs: number,
): Promise<WebhookEndpoint> {
  const change = {
    ...(fields.url !== undefined ? { url: checkUrl(fields.url) } : {}),
    ...(fields.description !== undefined
      ? { description: checkDescription(fields.description) }
      : {}),
    ...(fields.eventTypes !== undefined ? { eventTypes: checkEventTypes(fields.eventTypes) } : {}),
    ...(fields.enabled === true ? { enabled: true, disabledReason: null, failingSince: null } : {}),
    ...(fields.enabled === false ? { enabled: false, disabledReason: 'disabled by a person' } : {}),
  };
  return store.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, actor, uuid);
    const updated = await tx.updateWebhookEndpoint(endpoint.id, { ...change, updatedAt: nowMs });
    if (!updated) throw new DomainError('NOT_FOUND', `webhook endpoint ${uuid} does not exist`);
    const action =
      fields.enabled === true
        ? 'webhook.enable'
        : fields.enabled === false
          ? 'webhook.disable'
          : 'webhook.update';
    await audit(tx, actor.audit, updated, action, { ...fields }, nowMs);
    return updated;
  });
}

/**
 * A new secret; the old one keeps signing (a second signature) for `overlapMs`, so receivers
 * can move to the new one without losing an event.
 */
export async function rotateWebhookSecret(
  store: Store,
  actor: WebhookActor,
  uuid: string,
  input: { nowMs: number; overlapMs: number },
): Promise<WebhookEndpoint> {
  return store.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, actor, uuid);
    const updated = await tx.updateWebhookEndpoint(endpoint.id, {
      secret: newWebhookSecret(),
      previousSecret: input.overlapMs > 0 ? endpoint.secret : null,
      previousSecretUntil: input.overlapMs > 0 ? input.nowMs + input.overlapMs : null,
      updatedAt: input.nowMs,
    });
    await audit(tx, actor.audit, endpoint, 'webhook.rotate-secret', {}, input.nowMs);
    return updated!;
  });
}

export async function deleteWebhookEndpoint(
  store: Store,
  actor: WebhookActor,
  uuid: string,
  nowMs: number,
): Promise<void> {
  await store.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, actor, uuid);
    await tx.deleteWebhookEndpoint(endpoint.id);
    await audit(tx, actor.audit, endpoint, 'webhook.delete', { url: endpoint.url }, nowMs);
  });
}

export async function listWebhookDeliveries(
  store: WebhookEndpointStore,
  actor: WebhookActor,
  uuid: string,
  page: { limit: number; before?: number },
): Promise<WebhookDeliveryRecord[]> {
  const endpoint = await findWebhookEndpoint(store, actor, uuid);
  return store.listWebhookDeliveries(endpoint.id, page);
}

/** Posts a delivery again, at once, whatever became of it. */
export async function resendWebhookDelivery(
  store: WebhookEndpointStore,
  actor: WebhookActor,
  uuid: string,
  deliveryId: number,
  nowMs: number,
): Promise<void> {
  const endpoint = await findWebhookEndpoint(store, actor, uuid);
  if (!(await store.resendWebhookDelivery(endpoint.id, deliveryId, nowMs))) {
    throw new DomainError('NOT_FOUND', `delivery ${deliveryId} is not one of ${uuid}`);
  }
}

/** A `webhook.test` event to this endpoint alone, due at once; returns its id. */
export async function sendTestWebhook(
  store: WebhookEndpointStore,
  actor: WebhookActor,
  uuid: string,
  nowMs: number,
): Promise<string> {
  const endpoint = await findWebhookEndpoint(store, actor, uuid);
  const id = newEventId();
  await store.insertWebhookEvents([
    {
      uid: id,
      accountId: endpoint.accountId,
      type: 'webhook.test',
      body: eventBody('webhook.test', nowMs, {
        endpointId: endpoint.uuid,
        note: 'A test event from Nok: your endpoint receives and verifies webhooks.',
      }),
      dedupeKey: null,
      endpointIds: [endpoint.id],
      createdAt: nowMs,
    },
  ]);
  return id;
}

function checkUrl(text: string): string {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalidParameter(`url must be an absolute http(s) URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidParameter('url must start with https:// (or http://)');
  }
  if (url.username || url.password) {
    throw invalidParameter(
      'url may not hold a user name or password; verify the signature instead',
    );
  }
  if (trimmed.length > MAX_URL_LENGTH) {
    throw invalidParameter(`url has at most ${MAX_URL_LENGTH} characters`);
  }
  return trimmed;
}

function checkDescription(text: string): string {
  const trimmed = text.trim();
  if (countCharacters(trimmed) > MAX_DESCRIPTION_CHARS) {
    throw invalidParameter(`description has at most ${MAX_DESCRIPTION_CHARS} characters`);
  }
  return trimmed;
}

function checkEventTypes(types: readonly string[]): WebhookEventType[] {
  const unknown = types.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw invalidParameter(
      `unknown event type ${unknown.join(', ')}; use ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  }
  return WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t));
}

async function audit(
  store: AuditStore,
  actor: AuditActor | undefined,
  endpoint: WebhookEndpoint,
  action: string,
  detail: Record<string, unknown>,
  at: number,
): Promise<void> {
  if (!actor) return;
  await recordAudit(store, {
    ...actor,
    accountId: endpoint.accountId,
    action,
    targetType: 'webhook_endpoint',
    targetId: endpoint.uuid,
    detail,
    at,
  });
}
