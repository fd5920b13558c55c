import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import type { Store } from '../../src/domain/store.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { checkStore, messageIds } from '../support/money/check-store.js';
import { judge } from '../support/money/judge-answers.js';
import { emptyModel, type SendRequest } from '../support/money/model.js';
import {
  msisdn,
  planBatch,
  schedulerStore,
  setUpAccount,
  type Answer,
  type Outcome,
  type Rig,
} from '../support/money/requests.js';
import {
  ACTORS,
  PLATFORM_BLOCKED,
  scenario,
  type Batch,
  type Scenario,
} from '../support/money/scenario.js';

/**
 * Money under concurrency, as a property: random sequences of batches, each a set of requests
 * run at once (Promise.all) through the real HTTP app, the scheduler's real release job and the
 * addCredits use case, on each engine. After every batch, for both accounts:
 *
 * - the balance equals the ledger's sum and the model's balance (the opening credits, plus every
 *   top-up and refund that succeeded, minus the cost of every send accepted anew), and is never
 *   below 0, nor was it at any row of the ledger (each row's balance_after is the previous one
 *   plus its delta, and never negative);
 * - the ledger holds exactly the rows the successful requests explain, so a refused request
 *   (bad input, unknown or foreign sender or group, missing scope or key, insufficient credits,
 *   a reused Idempotency-Key, a cancel refused) and a dry run or preview-cost changed nothing;
 * - the messages are exactly those accepted, each with the cost the model computes (parts ×
 *   charged recipients × price per part) and the status the answers imply, and each message's
 *   ledger rows sum to minus its cost: one `send` (at once) or `hold` (scheduled) row of −cost,
 *   plus, once cancelled, one `refund` row of +cost, so a cancelled message nets 0. A message of
 *   cost 0 (every recipient blocked) has no ledger row at all.
 *
 * Semantics the test fixes: a dry run and preview-cost never write (no message, no ledger row, no
 * claim of the Idempotency-Key); a replayed send (same key, same body) answers the first answer
 * and charges nothing; a send refused for credits leaves its key unused; a cancel that loses the
 * race to the release answers ALREADY_PROCESSING and refunds nothing; a released message keeps
 * its hold.
 *
 * The data are generated from a fixed seed; the interleaving of a batch is the engine's. On a
 * failure, or when the runs do not all finish within the time limit, fast-check's report carries
 * the seed (and for a failure the path of the shrunk counterexample).
 */
const SEED = 20_261_122;
const RUNS = 40;
/**
 * Each engine takes a few seconds on an idle machine and ten times that on a loaded one; the cap
 * only stops a run that hangs. Runs cut short by it fail rather than pass fewer.
 */
const TIME_LIMIT_MS = 300_000;
const MINUTE_MS = 60_000;

/** What the runs reached, by kind of answer: shown as a diagnostic, and some of it required. */
const tally = new Map<string, number>();
const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

for (const engine of testEngines()) {
  describe(`money under concurrent requests (${engine.name})`, () => {
    let h: Harness;
    let scheduler: { store: Store; close(): Promise<void> };

    before(async () => {
      h = await createHarness(engine);
      scheduler = schedulerStore(h);
      await h.store.addToBlocklist(0, PLATFORM_BLOCKED.map(msisdn), h.clock.now());
    });
    after(async () => {
      await scheduler.close();
      await h.close();
    });

    it('keeps balance = ledger sum ≥ 0 and each message’s cost in its ledger rows, and lets refused requests change nothing', async (t) => {
      tally.clear();
      await fc.assert(
        fc.asyncProperty(scenario, (s) =>
          runScenario({ h, schedulerStore: scheduler.store, unknownKey: generateApiKey().key }, s),
        ),
        {
          seed: SEED,
          numRuns: RUNS,
          plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })],
        },
      );
      const counted = [...tally].sort(([a], [b]) => a.localeCompare(b));
      t.diagnostic(counted.map(([what, n]) => `${what}: ${n}`).join('; '));
      // The generator must keep reaching what the property is about.
      for (const what of [
        'send accepted',
        'send replayed',
        'estimate',
        '402 INSUFFICIENT_CREDITS',
        '422 IDEMPOTENCY_KEY_REUSED',
        'top-up',
      ])
        assert.ok((tally.get(what) ?? 0) > 0, `no ${what} in ${RUNS} runs`);
      // Which side wins is the engine's; that they meet is the generator's.
      const races =
        (tally.get('cancel won the race with a due release') ?? 0) +
        (tally.get('cancel lost the race with a due release') ?? 0);
      assert.ok(races > 0, `no cancel raced a due release in ${RUNS} runs`);
    });
  });
}

/** One generated scenario: two fresh accounts, then each batch at once and the checks after it. */
async function runScenario(rig: Rig, s: Scenario): Promise<void> {
  const { h } = rig;
  const worlds = { a: await setUpAccount(h, 'a', s), b: await setUpAccount(h, 'b', s) };
  const models = {
    a: emptyModel(s.credits.a, s.pricePerPart.a),
    b: emptyModel(s.credits.b, s.pricePerPart.b),
  };
  const keyed: SendRequest[] = [];
  for (const [index, batch] of s.batches.entries()) {
    h.clock.advance(batch.advanceMinutes * MINUTE_MS);
    const nowMs = h.clock.now();
    const ops = planBatch(rig, batch, worlds, models, keyed, nowMs);
    const results = await Promise.all(ops.map((op) => op.run()));
    const outcomes: Outcome[] = ops.map((op, i) => ({ op, result: results[i]! }));
    const ids = await messageIds(h, worlds);
    countOutcomes(outcomes, batch, nowMs);
    for (const actor of ACTORS) {
      const where = `batch ${index}, account ${actor}`;
      judge(actor, models[actor], outcomes, ids, batch, nowMs, where);
    }
    for (const op of ops)
      if (op.kind === 'send' && op.request.command.idempotencyKey !== null) keyed.push(op.request);
    for (const actor of ACTORS)
      await checkStore(h, worlds[actor], models[actor], `after batch ${index}, account ${actor}`);
  }
}

/** Counts each answer; run before the model moves on, so a target's status is its status at the start. */
function countOutcomes(outcomes: readonly Outcome[], batch: Batch, nowMs: number): void {
  const releaseRan = batch.commands.some((c) => c.kind === 'release');
  for (const { op, result } of outcomes) {
    if (op.kind === 'release' || op.kind === 'top-up') {
      count(op.kind === 'release' || typeof result === 'number' ? op.kind : 'top-up refused');
      continue;
    }
    const answer = result as Answer;
    if (op.kind === 'cancel') {
      const { target, command } = op;
      const raced =
        releaseRan &&
        command.fault === null &&
        command.actor === command.owner &&
        target?.status === 'scheduled' &&
        target.scheduledAt! <= nowMs;
      if (raced)
        count(`cancel ${answer.status === 200 ? 'won' : 'lost'} the race with a due release`);
      else
        count(
          answer.status === 200 ? 'cancel' : `cancel ${answer.status} ${String(answer.body.code)}`,
        );
      continue;
    }
    if (answer.status !== 200) count(`${answer.status} ${String(answer.body.code)}`);
    else if (answer.replayed) count('send replayed');
    else count(typeof answer.body.uuid === 'string' ? 'send accepted' : 'estimate');
  }
}
