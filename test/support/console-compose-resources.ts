// Bodies of the compose routes and the resources their fields name (uploaded lists, senders),
// for the console security suite. Resources go straight to the store, or through the upload
// route (which writes nothing but the list it holds in memory): making one adds no audit line.
import assert from 'node:assert/strict';
import { sessionHeaders, sessionOf } from './console-session.js';
import {
  CONSOLE_BODIES,
  CONSOLE_FIELD_RESOURCES,
  type SuiteActor,
} from './console-security-suite.js';
import type { Harness } from './harness.js';

let counter = 0;
/** One approved sender per account of each harness, made when first asked for. */
const senders = new WeakMap<Harness, Map<number, string>>();

async function ownSender(h: Harness, as: SuiteActor): Promise<string> {
  // An admin has no account: any name does, the route refuses them first.
  if (!as.account) return 'SUITE';
  const byAccount = senders.get(h) ?? new Map<number, string>();
  senders.set(h, byAccount);
  let name = byAccount.get(as.account.id);
  if (!name) {
    name = `SUITEC${++counter}`.slice(0, 11);
    await h.sender(as.account.id, name);
    byAccount.set(as.account.id, name);
  }
  return name;
}

/** Content and numbers, but not where `fill` gives a template or an uploaded list instead. */
const contentAndNumbers = (fill: Readonly<Record<string, unknown>>) => ({
  ...('templateId' in fill ? {} : { content: 'Suite' }),
  ...('recipientListId' in fill ? {} : { msisdns: ['0812345678'] }),
});

Object.assign(CONSOLE_BODIES, {
  'POST /console/api/messages': async (
    h: Harness,
    as: SuiteActor,
    fill: Readonly<Record<string, unknown>> = {},
  ) => ({ sender: await ownSender(h, as), ...contentAndNumbers(fill), dryRun: true }),
  'POST /console/api/messages/preview-cost': async (
    _h: Harness,
    _as: SuiteActor,
    fill: Readonly<Record<string, unknown>> = {},
  ) => contentAndNumbers(fill),
});

CONSOLE_FIELD_RESOURCES['recipient-list'] = async (h, of) => {
  const session = await sessionOf(h, of.user);
  const response = await h.app.inject({
    method: 'POST',
    url: '/console/api/recipient-lists',
    headers: { ...sessionHeaders(session), 'content-type': 'text/plain' },
    payload: '0812345678\n0812345679\n',
  });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: string }).id;
};

CONSOLE_FIELD_RESOURCES.sender = async (h, of) => {
  const name = `SUITEF${++counter}`.slice(0, 11);
  await h.sender(of.account!.id, name);
  return name;
};
