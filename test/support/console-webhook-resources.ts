// Path parameters and bodies of the webhook routes, for the console security suite. An account
// has at most ten endpoints: each account's one is made once and reused while it exists.
import {
  createWebhookEndpoint,
  sendTestWebhook,
} from '../../src/domain/webhooks/manage-endpoints.js';
import { CONSOLE_BODIES, CONSOLE_RESOURCES } from './console-security-suite.js';

const made = new Map<number, string>();

CONSOLE_RESOURCES.endpointUid = async (h, of) => {
  const known = made.get(of.account!.id);
  if (known && (await h.store.findWebhookEndpoint(known))) return known;
  const endpoint = await createWebhookEndpoint(h.store, {
    accountId: of.account!.id,
    url: 'https://hooks.example.com/suite',
    nowMs: h.clock.now(),
  });
  made.set(of.account!.id, endpoint.uuid);
  return endpoint.uuid;
};
CONSOLE_RESOURCES.deliveryId = async (h, of) => {
  const uuid = await CONSOLE_RESOURCES.endpointUid!(h, of);
  await sendTestWebhook(h.store, { accountId: null }, uuid, h.clock.now());
  const endpoint = (await h.store.findWebhookEndpoint(uuid))!;
  return String((await h.store.listWebhookDeliveries(endpoint.id, { limit: 1 }))[0]!.id);
};
CONSOLE_BODIES['POST /console/api/webhooks'] = async () => ({
  url: 'https://hooks.example.com/suite',
});
CONSOLE_BODIES['PATCH /console/api/webhooks/:endpointUid'] = async () => ({
  description: 'suite',
});
