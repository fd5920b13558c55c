import { SYSTEM_ACTOR } from '../domain/audit/audit-actor.js';
import { requireAccount } from '../domain/accounts/require-account.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/event-types.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  type WebhookActor,
} from '../domain/webhooks/manage-endpoints.js';
import type { WebhookEndpoint } from '../domain/webhooks/webhook-store.js';
import type { AdminCommand, Work } from './admin-command.js';
import {
  optionalInteger,
  optionalString,
  requiredInteger,
  requiredString,
  stringList,
  UsageError,
} from './parse-args.js';

// ---- nok admin webhook … (docs/webhooks.md "Managing endpoints") ----

/** An operator at a terminal: any account's endpoint, audited as the system. */
const OPERATOR: WebhookActor = { accountId: null, audit: SYSTEM_ACTOR };

const isoTime = (ms: number) => new Date(ms).toISOString();

/** An endpoint as the webhook commands print it, without its secret. */
function endpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.uuid,
    accountId: endpoint.accountId,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    createdAt: isoTime(endpoint.createdAt),
    updatedAt: isoTime(endpoint.updatedAt),
  };
}

const eventTypesText = (endpoint: WebhookEndpoint) =>
  endpoint.eventTypes.length > 0 ? endpoint.eventTypes.join(', ') : 'every event type';

const stateText = (endpoint: WebhookEndpoint) =>
  endpoint.enabled ? 'enabled' : `disabled (${endpoint.disabledReason ?? 'no reason recorded'})`;

/** A command on one endpoint: `nok admin webhook <verb> ID`. */
function endpointCommand(
  verb: string,
  summary: string,
  act: (id: string, ...run: Parameters<Work>) => ReturnType<Work>,
): AdminCommand {
  return {
    words: `webhook ${verb}`,
    usage: 'ID',
    summary,
    options: {},
    allowPositionals: true,
    prepare(parsed) {
      const [id, ...more] = parsed.positionals;
      if (id === undefined || id.trim().length === 0 || more.length > 0) {
        throw new UsageError('give one endpoint ID (nok admin webhook list shows them)');
      }
      return (store, nowMs, config) => act(id, store, nowMs, config);
    },
  };
}

export const WEBHOOK_COMMANDS: readonly AdminCommand[] = [
  {
    words: 'webhook create',
    usage: '--account A --url U [--event T]... [--description D]',
    summary: `a webhook endpoint, posted every event type or only those given (${WEBHOOK_EVENT_TYPES.join(', ')}); prints its signing secret`,
    options: {
      account: { type: 'string' },
      url: { type: 'string' },
      event: { type: 'string', multiple: true },
      description: { type: 'string' },
    },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const url = requiredString(parsed, 'url');
      const eventTypes = stringList(parsed, 'event');
      const description = optionalString(parsed, 'description');
      return async (store, nowMs) => {
        await requireAccount(store, accountId);
        const endpoint = await createWebhookEndpoint(store, {
          accountId,
          url,
          eventTypes,
          description,
          nowMs,
          audit: SYSTEM_ACTOR,
        });
        return {
          json: { ...endpointJson(endpoint), secret: endpoint.secret },
          text:
            `Created webhook endpoint ${endpoint.uuid} for account ${endpoint.accountId}: ${endpoint.url}, ${eventTypesText(endpoint)}.\n` +
            `Signing secret (the receiver verifies every request with it; keep it as a password):\n${endpoint.secret}`,
        };
      };
    },
  },
  {
    words: 'webhook list',
    usage: '[--account A]',
    summary:
      "every account's webhook endpoints, or one account's: URL, event types, enabled or why disabled",
    options: { account: { type: 'string' } },
    prepare(parsed) {
      const accountId = optionalInteger(parsed, 'account');
      return async (store) => {
        if (accountId !== undefined) await requireAccount(store, accountId);
        const endpoints = await listWebhookEndpoints(store, accountId ?? null);
        const none =
          accountId === undefined
            ? 'No webhook endpoints.'
            : `Account ${accountId} has no webhook endpoints.`;
        return {
          json: { endpoints: endpoints.map(endpointJson) },
          text:
            endpoints.length === 0
              ? none
              : endpoints
                  .map(
                    (e) =>
                      `${e.uuid}  account ${e.accountId}  ${e.url}  ${eventTypesText(e)}  ${stateText(e)}` +
                      (e.description ? `  "${e.description}"` : ''),
                  )
                  .join('\n'),
        };
      };
    },
  },
  endpointCommand(
    'disable',
    'stop posting to an endpoint until it is enabled',
    async (id, store, nowMs) => {
      const endpoint = await updateWebhookEndpoint(store, OPERATOR, id, { enabled: false }, nowMs);
      return {
        json: endpointJson(endpoint),
        text: `Disabled webhook endpoint ${endpoint.uuid} (${endpoint.url}).`,
      };
    },
  ),
  endpointCommand(
    'enable',
    'enable an endpoint again; its deliveries still pending are posted again',
    async (id, store, nowMs) => {
      const endpoint = await updateWebhookEndpoint(store, OPERATOR, id, { enabled: true }, nowMs);
      return {
        json: endpointJson(endpoint),
        text: `Enabled webhook endpoint ${endpoint.uuid} (${endpoint.url}); its deliveries still pending are posted again.`,
      };
    },
  ),
  endpointCommand(
    'rotate-secret',
    'a new signing secret, printed; the old one also signs for NOK_WEBHOOK_SECRET_OVERLAP_HOURS',
    async (id, store, nowMs, config) => {
      const endpoint = await rotateWebhookSecret(store, OPERATOR, id, {
        nowMs,
        overlapMs: config.webhooks.secretOverlapMs,
      });
      const until = endpoint.previousSecretUntil;
      return {
        json: {
          id: endpoint.uuid,
          secret: endpoint.secret,
          previousSecretUntil: until === null ? null : isoTime(until),
        },
        text:
          `Rotated the signing secret of webhook endpoint ${endpoint.uuid}. ` +
          (until === null
            ? 'The old secret no longer signs.'
            : `The old secret also signs until ${isoTime(until)} (NOK_WEBHOOK_SECRET_OVERLAP_HOURS): put the new one in the receiver before then.`) +
          `\nNew secret:\n${endpoint.secret}`,
      };
    },
  ),
  endpointCommand('delete', 'delete an endpoint and its deliveries', async (id, store, nowMs) => {
    await deleteWebhookEndpoint(store, OPERATOR, id, nowMs);
    return {
      json: { id, deleted: true },
      text: `Deleted webhook endpoint ${id} and its deliveries.`,
    };
  }),
  endpointCommand(
    'test',
    'send a webhook.test event to an endpoint; prints the event id (its webhook-id)',
    async (id, store, nowMs) => {
      const endpoint = await findWebhookEndpoint(store, OPERATOR, id);
      const eventId = await sendTestWebhook(store, OPERATOR, id, nowMs);
      return {
        json: { id: endpoint.uuid, eventId },
        text:
          `Queued webhook.test event ${eventId} for ${endpoint.uuid} (${endpoint.url}); ` +
          (endpoint.enabled
            ? 'a Nok process delivering webhooks posts it at once.'
            : 'the endpoint is disabled, so it is posted once the endpoint is enabled.'),
      };
    },
  ),
];
