import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { addCredits } from '../../../src/domain/credits/add-credits.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { Store } from '../../../src/domain/store.js';
import { releaseDueMessages } from '../../../src/scheduler/release-due-messages.js';
import { openDatabase } from '../../../src/storage/open-database.js';
import { createStore } from '../../../src/storage/store.js';
import type { Harness } from '../harness.js';
import {
  buildSendRequest,
  expectSend,
  type ActorModel,
  type ActorWorld,
  type Expected,
  type MessageInModel,
  type SendRequest,
} from './model.js';
import {
  GROUP_MEMBERS,
  NUMBER_POOL,
  OWN_BLOCKED,
  type Actor,
  type Batch,
  type CancelCommand,
  type Scenario,
  type TopUpCommand,
} from './scenario.js';

/** How the money property test's commands become requests, and what they answer. */

const UNKNOWN_MESSAGE = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_ACCOUNT = 2_000_000_000;

/** What a batch runs against: the app, the scheduler's store, a well-formed key that is no one's. */
export interface Rig {
  readonly h: Harness;
  readonly schedulerStore: Store;
  readonly unknownKey: string;
}

let accountsMade = 0;

/**
 * The scheduler's own connection, as a scheduler process would have: on PostgreSQL a second
 * pool, so releases and top-ups really run beside the API's transactions. SQLite runs the
 * scheduler in the API's process, on its one connection.
 */
export function schedulerStore(h: Harness): { store: Store; close(): Promise<void> } {
  if (h.db.schema === undefined) return { store: h.store, close: async () => undefined };
  const database = openDatabase(h.db.url, { schema: h.db.schema });
  return { store: createStore(database.db), close: () => database.close() };
}

export function msisdn(poolIndex: number): string {
  return `66${NUMBER_POOL[poolIndex]}`;
}

/** One account of a run: credits, price, senders (approved and pending), keys, a contact group. */
export async function setUpAccount(h: Harness, actor: Actor, s: Scenario): Promise<ActorWorld> {
  const n = ++accountsMade;
  const nowMs = h.clock.now();
  const account = await h.account({
    credits: s.credits[actor],
    pricePerPart: s.pricePerPart[actor],
    name: `Money ${actor}${n}`,
  });
  const sender = `M${actor.toUpperCase()}${n}`;
  const pendingSender = `P${actor.toUpperCase()}${n}`;
  await h.sender(account.id, sender);
  await h.sender(account.id, pendingSender, 'pending');
  const group = await h.store.createContactGroup({ accountId: account.id, name: 'g', nowMs });
  await h.store.addContacts(group.id, GROUP_MEMBERS[actor].map(msisdn));
  if (OWN_BLOCKED[actor].length > 0)
    await h.store.addToBlocklist(account.id, OWN_BLOCKED[actor].map(msisdn), nowMs);
  return {
    actor,
    accountId: account.id,
    key: (await h.key(account.id)).key,
    readOnlyKey: (await h.key(account.id, ['sms:read'])).key,
    sender,
    pendingSender,
    groupId: group.id,
    pricePerPart: s.pricePerPart[actor],
  };
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly replayed: boolean;
}

export type Op =
  | { kind: 'send'; request: SendRequest; expected: Expected; run(): Promise<Answer> }
  | {
      kind: 'cancel';
      command: CancelCommand;
      target: MessageInModel | null;
      run(): Promise<Answer>;
    }
  | { kind: 'top-up'; command: TopUpCommand; run(): Promise<number | DomainError> }
  | { kind: 'release'; run(): Promise<number[]> };

export interface Outcome {
  readonly op: Op;
  readonly result: Answer | number | DomainError | number[];
}

/** The batch's commands as operations to start at once; `keyed` are the earlier keyed sends. */
export function planBatch(
  { h, schedulerStore, unknownKey }: Rig,
  batch: Batch,
  worlds: Record<Actor, ActorWorld>,
  models: Record<Actor, ActorModel>,
  keyed: readonly SendRequest[],
  nowMs: number,
): Op[] {
  const ops: Op[] = [];
  const post =
    (url: string, apiKey: string | undefined, body?: string, idempotencyKey?: string | null) =>
    async () => {
      const response = await h.request({
        method: 'POST',
        url,
        key: apiKey,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body !== undefined ? { payload: body } : {}),
      });
      return answer(response);
    };
  const sendOp = (request: SendRequest): Op => ({
    kind: 'send',
    request,
    expected: expectSend(request, models[request.command.actor], nowMs),
    run: post(request.url, request.apiKey, request.body, request.command.idempotencyKey),
  });

  for (const command of batch.commands) {
    switch (command.kind) {
      case 'send': {
        const self = worlds[command.actor];
        const other = worlds[command.actor === 'a' ? 'b' : 'a'];
        ops.push(sendOp(buildSendRequest(command, self, other, nowMs, unknownKey)));
        break;
      }
      case 'retry':
        if (keyed.length > 0) ops.push(sendOp(keyed[command.pick % keyed.length]!));
        break;
      case 'cancel': {
        const target =
          command.fault === 'unknown-message'
            ? null
            : pickMessage(models[command.owner], command, nowMs);
        const apiKey = command.fault === 'no-key' ? undefined : worlds[command.actor].key;
        ops.push({
          kind: 'cancel',
          command,
          target,
          run: post(`/api/v2/sms/${target?.uuid ?? UNKNOWN_MESSAGE}/cancel`, apiKey),
        });
        break;
      }
      case 'top-up': {
        const { fault, amount } = command;
        const accountId =
          fault === 'unknown-account' ? UNKNOWN_ACCOUNT : worlds[command.actor].accountId;
        const credited = fault === 'zero' ? 0 : fault === 'negative' ? -amount : amount;
        const run = () =>
          addCredits(schedulerStore, { accountId, amount: credited, nowMs }).then(
            (done) => done.balance,
            (error: unknown) => {
              if (error instanceof DomainError) return error;
              throw error;
            },
          );
        ops.push({ kind: 'top-up', command, run });
        break;
      }
      case 'release': {
        const run = async () => {
          for (let i = 0; i < command.delayTurns; i++) await nextTurn();
          return releaseDueMessages(schedulerStore, nowMs);
        };
        ops.push({ kind: 'release', run });
        break;
      }
    }
  }
  return ops;
}

function pickMessage(
  model: ActorModel,
  command: CancelCommand,
  nowMs: number,
): MessageInModel | null {
  const all = [...model.messages.values()];
  const scheduled = all.filter((m) => m.status === 'scheduled');
  const due = scheduled.filter((m) => m.scheduledAt! <= nowMs);
  const sets = { due: [due, scheduled, all], scheduled: [scheduled, all], any: [all] };
  const candidates = sets[command.among].find((set) => set.length > 0) ?? [];
  return candidates.length === 0 ? null : candidates[command.pick % candidates.length]!;
}

function answer(response: LightMyRequestResponse): Answer {
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown>,
    replayed: response.headers['idempotent-replayed'] === 'true',
  };
}
