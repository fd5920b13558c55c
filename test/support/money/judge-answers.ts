import assert from 'node:assert/strict';
import { DomainError } from '../../../src/domain/errors.js';
import {
  KEY_REUSED,
  refusedBeforeTheKey,
  type ActorModel,
  type Expected,
  type MessageInModel,
  type SendRequest,
} from './model.js';
import type { Answer, Op, Outcome } from './requests.js';
import type { Actor, Batch } from './scenario.js';

/**
 * Judges one account's answers in a batch against the model, then moves the model on by what
 * succeeded. What concurrency may decide is judged against bounds: a send refused for credits
 * must cost more than the least the balance could have been during the batch.
 */
export function judge(
  actor: Actor,
  model: ActorModel,
  outcomes: readonly Outcome[],
  ids: ReadonlyMap<number, string>,
  batch: Batch,
  nowMs: number,
  where: string,
): void {
  const start = model.balance;
  let credited = 0;
  let debited = 0;
  const sends = outcomes.filter(
    (o): o is Outcome & { op: Extract<Op, { kind: 'send' }>; result: Answer } =>
      o.op.kind === 'send' && o.op.request.command.actor === actor,
  );

  // The first uses of each Idempotency-Key accepted in this batch: at most one per key, ever.
  const winners = new Map<string, { body: string; answer: unknown }>();
  for (const { op, result } of sends) {
    const key = op.request.command.idempotencyKey;
    if (key === null || !isNewAccept(result)) continue;
    assert.ok(!winners.has(key) && !model.keys.has(key), `${where}: key ${key} accepted twice`);
    winners.set(key, { body: op.request.body, answer: result.body });
  }

  const refusedForCredits: number[] = [];
  const estimates: Answer[] = [];
  for (const { op, result } of sends) {
    const { request, expected } = op;
    const what = `${where}: ${request.command.via} ${shorten(request.body)} → ${result.status} ${JSON.stringify(result.body)}`;
    const key = request.command.idempotencyKey;
    const winner =
      key === null || refusedBeforeTheKey(request.command.fault) ? undefined : winners.get(key);
    if (winner && winner.answer !== result.body) {
      // A concurrent first use of the key may have committed first.
      const alternative: Expected =
        winner.body === request.body ? { kind: 'replay', answer: winner.answer } : KEY_REUSED;
      if (matches(alternative, result)) continue;
    }
    switch (expected.kind) {
      case 'refused':
      case 'replay':
        assert.ok(matches(expected, result), `${what}; expected ${JSON.stringify(expected)}`);
        break;
      case 'estimate':
        assert.equal(result.status, 200, what);
        assert.deepEqual(costOf(result), [expected.parts, expected.charged, expected.cost], what);
        assert.equal(
          result.body.sufficientCredits,
          (result.body.balance as number) >= expected.cost,
          what,
        );
        estimates.push(result);
        break;
      case 'accept':
        if (result.status === 402) {
          assert.equal(result.body.code, 'INSUFFICIENT_CREDITS', what);
          assert.ok(expected.cost > 0, `${what}: a send of cost 0 refused for credits`);
          refusedForCredits.push(expected.cost);
          break;
        }
        assert.ok(isNewAccept(result), `${what}; expected ${JSON.stringify(expected)}`);
        assert.deepEqual(costOf(result), [expected.parts, expected.charged, expected.cost], what);
        assert.equal(result.body.status, expected.status, what);
        assert.ok((result.body.balance as number) >= 0, `${what}: a negative balance answered`);
        debited += expected.cost;
        accept(model, result, request);
        break;
    }
  }

  for (const { op, result } of outcomes) {
    if (op.kind !== 'top-up' || op.command.actor !== actor) continue;
    const { fault, amount } = op.command;
    const what = `${where}: top-up ${amount} (${fault ?? 'valid'})`;
    if (fault === null) {
      assert.equal(typeof result, 'number', `${what} failed: ${String(result)}`);
      assert.ok((result as number) >= amount, what);
      model.balance += amount;
      credited += amount;
      model.ledger.push({ reason: 'top-up', delta: amount, uuid: null });
    } else {
      assert.ok(result instanceof DomainError, `${what} was not refused`);
      assert.equal(
        result.code,
        fault === 'unknown-account' ? 'NOT_FOUND' : 'INVALID_PARAMETER',
        what,
      );
    }
  }

  credited += judgeCancels(actor, model, outcomes, ids, batch, nowMs, where);

  // However the batch interleaved, the balance stayed within [start − debited, start + credited].
  const least = start - debited;
  for (const cost of refusedForCredits)
    assert.ok(
      cost > least,
      `${where}: a send of ${cost} refused for credits; the balance never fell below ${least}`,
    );
  for (const estimate of estimates) {
    const balance = estimate.body.balance as number;
    assert.ok(
      balance >= least && balance <= start + credited,
      `${where}: an estimate saw a balance of ${balance}`,
    );
  }
}

function judgeCancels(
  actor: Actor,
  model: ActorModel,
  outcomes: readonly Outcome[],
  ids: ReadonlyMap<number, string>,
  batch: Batch,
  nowMs: number,
  where: string,
): number {
  let refunded = 0;
  const released = new Set<string>();
  for (const { op, result } of outcomes)
    if (op.kind === 'release')
      for (const id of result as number[]) if (ids.has(id)) released.add(ids.get(id)!);
  const releaseRan = batch.commands.some((c) => c.kind === 'release');
  const cancels = outcomes.filter(
    (o): o is Outcome & { op: Extract<Op, { kind: 'cancel' }>; result: Answer } =>
      o.op.kind === 'cancel',
  );

  // Cancels the state at the batch's start decides alone.
  for (const { op, result } of cancels) {
    const { command, target } = op;
    if (command.actor !== actor) continue;
    const what = `${where}: cancel of ${target?.uuid ?? 'no message'} (${command.fault ?? 'valid'}) → ${result.status} ${JSON.stringify(result.body)}`;
    const fixed: [number, string] | null =
      command.fault === 'no-key'
        ? [401, 'UNAUTHORIZED']
        : target === null
          ? [404, 'NOT_FOUND']
          : command.owner !== actor
            ? [403, 'FORBIDDEN']
            : target.status === 'cancelled'
              ? [409, 'ALREADY_CANCELLED']
              : target.status === 'scheduled'
                ? null
                : target.scheduledAt !== null
                  ? [409, 'ALREADY_PROCESSING']
                  : [400, 'NOT_SCHEDULED'];
    if (fixed) assert.deepEqual([result.status, result.body.code], fixed, what);
  }

  // A message scheduled at the batch's start: its cancels and the release race, one wins.
  for (const message of model.messages.values()) {
    if (message.status !== 'scheduled') {
      assert.ok(
        !released.has(message.uuid),
        `${where}: ${message.uuid} released while ${message.status}`,
      );
      continue;
    }
    const mine = cancels.filter(
      (o) => o.op.target === message && o.op.command.actor === actor && o.op.command.fault === null,
    );
    const wins = mine.filter((o) => o.result.status === 200);
    const isReleased = released.has(message.uuid);
    const due = message.scheduledAt! <= nowMs;
    const what = `${where}: ${message.uuid} (due ${due}, release ran ${releaseRan}, released ${isReleased}, ${wins.length} cancels won)`;
    assert.ok(wins.length <= 1, `${what}: cancelled twice`);
    assert.ok(!(isReleased && wins.length === 1), `${what}: both cancelled and released`);
    if (!due) assert.ok(!isReleased, `${what}: released before its time`);
    if (due && releaseRan)
      assert.ok(isReleased || wins.length === 1, `${what}: due but left scheduled`);
    for (const { result } of mine) {
      if (result.status === 200) {
        assert.deepEqual(
          result.body,
          { uuid: message.uuid, status: 'cancelled', refunded: message.cost },
          what,
        );
        continue;
      }
      const code =
        wins.length === 1
          ? 'ALREADY_CANCELLED'
          : isReleased
            ? 'ALREADY_PROCESSING'
            : 'a cancel that should have won';
      assert.deepEqual([result.status, result.body.code], [409, code], what);
    }
    if (wins.length === 1) {
      message.status = 'cancelled';
      if (message.cost > 0) {
        model.balance += message.cost;
        model.ledger.push({ reason: 'refund', delta: message.cost, uuid: message.uuid });
        refunded += message.cost;
      }
    } else if (isReleased) message.status = 'pending';
  }
  return refunded;
}

function isNewAccept(result: Answer): boolean {
  return result.status === 200 && !result.replayed && typeof result.body.uuid === 'string';
}

function matches(expected: Expected, result: Answer): boolean {
  if (expected.kind === 'refused')
    return (
      result.status === expected.status &&
      result.body.code === expected.code &&
      typeof result.body.error === 'string'
    );
  if (expected.kind === 'replay')
    return result.status === 200 && result.replayed && isDeepEqual(result.body, expected.answer);
  return false;
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

function costOf(result: Answer): [unknown, unknown, unknown] {
  return [
    result.body.parts,
    (result.body.recipients as { charged?: unknown } | undefined)?.charged,
    result.body.cost,
  ];
}

function accept(model: ActorModel, result: Answer, request: SendRequest): void {
  const uuid = result.body.uuid as string;
  const cost = result.body.cost as number;
  const scheduled = request.scheduledAt !== null;
  model.messages.set(uuid, {
    uuid,
    cost,
    scheduledAt: request.scheduledAt,
    status: result.body.status as MessageInModel['status'],
  });
  model.balance -= cost;
  if (cost > 0) model.ledger.push({ reason: scheduled ? 'hold' : 'send', delta: -cost, uuid });
  const key = request.command.idempotencyKey;
  if (key !== null) model.keys.set(key, { body: request.body, answer: result.body });
}

function shorten(text: string): string {
  return text.length <= 300 ? text : `${text.slice(0, 300)}… (${text.length} characters)`;
}
