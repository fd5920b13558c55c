import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import type {
  DeliveryStatus,
  PartOutcome,
  ReceiptReport,
} from '../../src/domain/delivery/delivery-store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

/**
 * One delivery behaviour on both engines, as a property (ADR 0020): the same generated sequences
 * of submit outcomes, receipts and sweeps — duplicates, receipts before their submission, out of
 * order, several parts of one recipient in one batch, SMSC ids whose hex and decimal forms
 * collide, messages of 1 to 63 parts — go to a SQLite file and to PostgreSQL, and after every
 * batch every recipient row, counter, submission, orphan receipt and message flag of the run is
 * the same on both, field by field. On every engine the counters also equal the recipients'
 * statuses. Fixed seed, bounded runs; fast-check's report on a failure carries the seed and the
 * shrunk sequence.
 */
const SEED = 20_261_123;
const RUNS = Number(process.env.PARITY_RUNS ?? 30);
/**
 * The default runs take a few seconds on an idle machine and ten times that on a loaded one; the
 * cap only stops a run that hangs. A run cut short by it fails, with its seed, rather than passing
 * on fewer runs.
 */
const TIME_LIMIT_MS = Math.max(300_000, RUNS * 10_000);

/** Parts of the generated messages: the 32-bit and 53-bit edges, and the largest a mask holds. */
const PART_COUNTS = [1, 2, 3, 30, 31, 32, 33, 61, 63] as const;
/** SMSC ids: case and leading zeros differ, and '10' / 'a', 'ff' / '255' name each other. */
const SMSC_IDS = ['a1', 'A1', '00a1', '10', 'a', 'ff', '255', 'x7', 'x8', 'x9', 'y1', 'y2'];
const WINDOW_MS = 30_000;
const DEFAULT_WINDOW_MS = 120_000;
const ORPHAN_MAX_AGE_MS = 90_000;

interface Ref {
  message: number;
  seq: number;
}

type Step =
  | { kind: 'outcomes'; advance: number; items: (Ref & GeneratedOutcome)[] }
  | { kind: 'receipts'; advance: number; items: ReceiptReport[] }
  | { kind: 'sweep'; advance: number }
  /** Every part of every recipient of a message accepted, as a dispatcher's clean round. */
  | { kind: 'acceptAll'; advance: number; message: number; reverse: boolean }
  /** Receipts for the parts `acceptAll` would submit, before it does: orphans until matched. */
  | { kind: 'early'; advance: number; message: number; outcome: ReceiptReport['outcome'] }
  | {
      /** Receipts for the submissions stored now, as an SMSC would send them. */
      kind: 'echo';
      advance: number;
      outcomes: ReceiptReport['outcome'][];
      reverse: boolean;
      twice: boolean;
      upper: boolean;
    };

type GeneratedOutcome =
  | { kind: 'accepted'; part: number; carrier: string; smscId: string }
  | { kind: 'retry'; in: number; error: string }
  | { kind: 'final'; status: Exclude<DeliveryStatus, 'success'>; error: string };

interface Scenario {
  messages: { parts: number; recipients: number }[];
  steps: Step[];
}

const ref = fc.record({ message: fc.nat({ max: 1 }), seq: fc.integer({ min: 1, max: 3 }) });
const carrier = fc.constantFrom('c1', 'c2');
const smscId = fc.constantFrom(...SMSC_IDS);
/** A part index, reduced modulo the message's parts when the scenario is run. */
const part = fc.oneof(fc.nat({ max: 3 }), fc.constantFrom(29, 30, 31, 32, 52, 53, 60, 62));
const advance = fc.constantFrom(0, 0, 1_000, 40_000, 100_000);

const outcome: fc.Arbitrary<Ref & GeneratedOutcome> = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('accepted' as const), part, carrier, smscId }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('retry' as const),
        in: fc.constantFrom(1_000, 5_000),
        error: fc.constantFrom('c1: throttled', 'c2: bind down'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('final' as const),
        status: fc.constantFrom('failed' as const, 'invalid' as const, 'expired' as const),
        error: fc.constantFrom('ESME_RINVDSTADR', 'retry window over'),
      }),
    },
  )
  .chain((o) => ref.map((r) => ({ ...r, ...o })));

const outcomeOrNull = fc.constantFrom<ReceiptReport['outcome']>(
  'success',
  'success',
  'success',
  'failed',
  'expired',
  null,
);

const receipt: fc.Arbitrary<ReceiptReport> = fc.record({
  carrier,
  smscId,
  outcome: fc.constantFrom(
    'success' as const,
    'success' as const,
    'failed' as const,
    'expired' as const,
    null,
  ),
  error: fc.constantFrom(null, 'UNDELIV', 'EXPIRED'),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('outcomes' as const),
      advance,
      items: fc.array(outcome, { minLength: 1, maxLength: 10 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('receipts' as const),
      advance,
      items: fc.array(receipt, { minLength: 1, maxLength: 10 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sweep' as const), advance }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('acceptAll' as const),
      advance,
      message: fc.nat({ max: 1 }),
      reverse: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('early' as const),
      advance,
      message: fc.nat({ max: 1 }),
      outcome: outcomeOrNull,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('echo' as const),
      advance,
      outcomes: fc.oneof(
        fc.constant<ReceiptReport['outcome'][]>(['success']),
        fc.array(outcomeOrNull, { minLength: 1, maxLength: 4 }),
      ),
      reverse: fc.boolean(),
      twice: fc.boolean(),
      upper: fc.boolean(),
    }),
  },
);

const scenario: fc.Arbitrary<Scenario> = fc.record({
  messages: fc.array(
    fc.record({
      parts: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(1, 2, 3) },
        { weight: 2, arbitrary: fc.constantFrom(...PART_COUNTS) },
      ),
      recipients: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  steps: fc.array(step, { minLength: 1, maxLength: 10 }),
});

/** Written out, so that every run covers it: receipts first, matched by the sweep later. */
const receiptsFirst: Scenario = {
  messages: [
    { parts: 3, recipients: 2 },
    { parts: 32, recipients: 1 },
  ],
  steps: [
    { kind: 'early', advance: 0, message: 0, outcome: 'success' },
    { kind: 'early', advance: 0, message: 1, outcome: 'success' },
    { kind: 'acceptAll', advance: 1_000, message: 1, reverse: true },
    { kind: 'acceptAll', advance: 0, message: 0, reverse: false },
    { kind: 'sweep', advance: 1_000 },
  ],
};

interface Side {
  readonly name: string;
  readonly h: Harness;
  readonly customer: Customer;
}

/** Time only moves forward, across runs too, so that a run's sweeps never meet another's rows. */
let clockMs = Date.parse('2026-11-23T00:00:00Z');
let run = 0;

const engines = testEngines();

describe('delivery on both engines', () => {
  const sides: Side[] = [];

  before(async () => {
    for (const engine of engines) {
      const h = await createHarness(engine);
      sides.push({ name: engine.name, h, customer: await h.customer({ credits: 1e12 }) });
    }
  });
  after(async () => {
    for (const side of sides) await side.h.close();
  });

  it('folds the same outcomes, receipts and sweeps into the same rows and counters', async (t) => {
    if (sides.length < 2) {
      t.diagnostic(
        'PostgreSQL is not configured: this compares SQLite with PostgreSQL and needs ' +
          'NOK_TEST_PG_URL; here it checks SQLite’s counters against its rows only',
      );
    }
    const reached = new Map<string, number>();
    const firstRun = run + 1;
    const count = (what: string) => reached.set(what, (reached.get(what) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(scenario, (s) => runScenario(sides, s, count)),
      {
        seed: SEED,
        numRuns: RUNS,
        plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })],
        examples: [[receiptsFirst]],
      },
    );
    t.diagnostic(
      [
        `runs: ${run}`,
        ...[...reached].sort(([a], [b]) => a.localeCompare(b)).map(([what, n]) => `${what}: ${n}`),
      ].join('; '),
    );
    // Every run finished (an interrupted one failed above), so the generator must keep reaching
    // what the property is about.
    assert.equal(run - firstRun + 1, RUNS, 'every run ran, the fixed example among them');
    for (const what of [
      'success',
      'failed',
      'expired',
      'invalid',
      'timeout',
      'orphan kept',
      'orphan matched by the sweep',
      'multipart delivered',
    ])
      assert.ok((reached.get(what) ?? 0) > 0, `no ${what} in ${RUNS} runs`);
  });
});

async function runScenario(
  sides: Side[],
  s: Scenario,
  count: (what: string) => void,
): Promise<void> {
  run += 1;
  const carrierOf = (name: string) => `r${run}-${name}`;
  const ids: number[][] = [];
  clockMs += 24 * 3_600_000;
  for (const side of sides) ids.push(await createMessages(side, s, clockMs));
  const compare = async (after: string) => {
    const snapshots = await Promise.all(
      sides.map((side, i) => snapshot(side, ids[i]!, `r${run}-`)),
    );
    for (const snap of snapshots) {
      for (const [i, message] of snap.messages.entries()) {
        assert.deepEqual(message.counts, message.statuses, `${after}: counters of message ${i}`);
      }
    }
    if (snapshots.length === 2) {
      assert.deepEqual(snapshots[1], snapshots[0], `${after}: postgres (actual) vs sqlite`);
    }
    return snapshots[0]!;
  };
  let before = await compare('materialised');
  for (const [index, st] of s.steps.entries()) {
    clockMs += st.advance;
    const nowMs = clockMs;
    for (const [i, side] of sides.entries()) {
      const messageIds = ids[i]!;
      const delivery = side.h.db.database.delivery;
      if (st.kind === 'outcomes') {
        await delivery.recordOutcomes(
          st.items.map((o) => toOutcome(o, s, messageIds, carrierOf)),
          nowMs,
        );
      } else if (st.kind === 'receipts') {
        await delivery.applyReceipts(
          st.items.map((r) => ({ ...r, carrier: carrierOf(r.carrier) })),
          nowMs,
        );
      } else if (st.kind === 'acceptAll') {
        await delivery.recordOutcomes(acceptAll(s, messageIds, st, carrierOf), nowMs);
      } else if (st.kind === 'early') {
        const accepted = acceptAll(
          s,
          messageIds,
          { message: st.message, reverse: false },
          carrierOf,
        );
        await delivery.applyReceipts(
          accepted.map((o) => ({
            carrier: o.carrier,
            smscId: o.smscId.toUpperCase(),
            outcome: st.outcome,
            error: st.outcome === 'success' ? null : 'UNDELIV',
          })),
          nowMs,
        );
      } else if (st.kind === 'echo') {
        await delivery.applyReceipts(echoes(before.submissions, st), nowMs);
      } else {
        await delivery.sweep({
          nowMs,
          receiptWindowsMs: new Map([[carrierOf('c1'), WINDOW_MS]]),
          defaultReceiptWindowMs: DEFAULT_WINDOW_MS,
          orphanMaxAgeMs: ORPHAN_MAX_AGE_MS,
        });
      }
    }
    const now = await compare(`step ${index} (${st.kind})`);
    tally(before, now, st, count);
    before = now;
  }
}

async function createMessages(side: Side, s: Scenario, nowMs: number): Promise<number[]> {
  const { h, customer } = side;
  const ids: number[] = [];
  for (const [i, m] of s.messages.entries()) {
    const msisdns = Array.from({ length: m.recipients }, (_, k) => `08${run % 10}${i}00000${k}`);
    const { uuid } = await h.send(customer, { sender: customer.sender, content: 'Hi', msisdns });
    const message = (await h.store.findMessageByUuid(uuid))!;
    // A send's content is at most 1,000 characters (31 parts); the store takes the part count
    // from the message row, so the larger messages a mask must hold are made here.
    await sql`UPDATE messages SET parts = ${m.parts} WHERE id = ${message.id}`.execute(
      h.db.database.db,
    );
    ids.push(message.id);
  }
  const cache = new CompactListCache();
  while ((await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, nowMs)) > 0);
  return ids;
}

/** Receipts for the stored submissions (the same on both engines, or the test failed already). */
function echoes(submissions: Snapshot['submissions'], st: Extract<Step, { kind: 'echo' }>) {
  const receipts = submissions.map((row, i): ReceiptReport => ({
    carrier: row.carrier as string,
    smscId: st.upper ? (row.smsc_id as string).toUpperCase() : (row.smsc_id as string),
    outcome: st.outcomes[i % st.outcomes.length]!,
    error: st.outcomes[i % st.outcomes.length] === 'success' ? null : 'UNDELIV',
  }));
  if (st.reverse) receipts.reverse();
  return st.twice ? [...receipts, ...receipts.slice(0, 2)] : receipts;
}

function acceptAll(
  s: Scenario,
  messageIds: number[],
  st: { message: number; reverse: boolean },
  carrierOf: (name: string) => string,
): Extract<PartOutcome, { kind: 'accepted' }>[] {
  const m = st.message % s.messages.length;
  const outcomes: Extract<PartOutcome, { kind: 'accepted' }>[] = [];
  for (let seq = 1; seq <= s.messages[m]!.recipients; seq++) {
    for (let part = 0; part < s.messages[m]!.parts; part++) {
      outcomes.push({
        kind: 'accepted',
        messageId: messageIds[m]!,
        seq,
        part,
        carrier: carrierOf(part % 2 === 0 ? 'c1' : 'c2'),
        smscId: `m${m}s${seq}p${part}`,
      });
    }
  }
  return st.reverse ? outcomes.reverse() : outcomes;
}

function toOutcome(
  o: Ref & GeneratedOutcome,
  s: Scenario,
  messageIds: number[],
  carrierOf: (name: string) => string,
): PartOutcome {
  const m = o.message % s.messages.length;
  const messageId = messageIds[m]!;
  const seq = ((o.seq - 1) % s.messages[m]!.recipients) + 1;
  switch (o.kind) {
    case 'accepted':
      return {
        kind: 'accepted',
        messageId,
        seq,
        part: o.part % s.messages[m]!.parts,
        carrier: carrierOf(o.carrier),
        smscId: o.smscId,
      };
    case 'retry':
      return { kind: 'retry', messageId, seq, nextAttemptAt: clockMs + o.in, error: o.error };
    case 'final':
      return { kind: 'final', messageId, seq, status: o.status, error: o.error };
  }
}

interface Snapshot {
  messages: {
    anyAccepted: number;
    recipients: Record<string, unknown>[];
    counts: Record<string, number>;
    statuses: Record<string, number>;
  }[];
  submissions: Record<string, unknown>[];
  orphans: Record<string, unknown>[];
}

/** Everything delivery writes for the run's messages and carriers, engine-neutral. */
async function snapshot(
  side: Side,
  messageIds: number[],
  carrierPrefix: string,
): Promise<Snapshot> {
  const db = side.h.db.database.db;
  const index = new Map(messageIds.map((id, i) => [id, i]));
  const messages: Snapshot['messages'] = [];
  for (const id of messageIds) {
    const { rows: flags } = await sql<{ any_accepted: number }>`
      SELECT any_accepted FROM messages WHERE id = ${id}`.execute(db);
    const { rows: recipients } = await sql<Record<string, unknown>>`
      SELECT seq, status, error, attempts,
        CAST(parts_accepted AS TEXT) AS parts_accepted,
        CAST(parts_delivered AS TEXT) AS parts_delivered,
        next_attempt_at, first_attempt_at, updated_at
      FROM recipients WHERE message_id = ${id} ORDER BY seq`.execute(db);
    const { rows: counters } = await sql<{ status: string; count: number }>`
      SELECT status, count FROM message_counts WHERE message_id = ${id}`.execute(db);
    const counts: Record<string, number> = {};
    for (const c of counters) if (Number(c.count) !== 0) counts[c.status] = Number(c.count);
    const statuses: Record<string, number> = {};
    for (const r of recipients)
      statuses[r.status as string] = (statuses[r.status as string] ?? 0) + 1;
    messages.push({
      anyAccepted: Number(flags[0]!.any_accepted),
      recipients: recipients.map(neutral),
      counts: sorted(counts),
      statuses: sorted(statuses),
    });
  }
  const { rows: submissions } = await sql<Record<string, unknown>>`
    SELECT carrier, smsc_id, message_id, seq, part, submitted_at FROM submissions
    WHERE carrier LIKE ${`${carrierPrefix}%`} ORDER BY carrier, smsc_id`.execute(db);
  const { rows: orphans } = await sql<Record<string, unknown>>`
    SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts
    WHERE carrier LIKE ${`${carrierPrefix}%`} ORDER BY carrier, smsc_id`.execute(db);
  return {
    messages,
    submissions: submissions.map((row) =>
      neutral({ ...row, message_id: index.get(Number(row.message_id)) ?? -1 }),
    ),
    orphans: orphans.map(neutral),
  };
}

/** Numbers as numbers and text as text, whatever the driver gave. */
function neutral(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
  );
}

function sorted(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Counts what a step did (on the first engine), so the test can tell it reached it. */
function tally(before: Snapshot, now: Snapshot, st: Step, count: (what: string) => void): void {
  for (const [m, message] of now.messages.entries()) {
    for (const [r, row] of message.recipients.entries()) {
      const was = before.messages[m]!.recipients[r]!;
      if (was.status === 'pending' && row.status !== 'pending') {
        count(row.status as string);
        if (row.status === 'success' && row.parts_delivered !== '1') count('multipart delivered');
      }
    }
  }
  if (st.kind === 'receipts' && now.orphans.length > 0) count('orphan kept');
  if (st.kind === 'sweep') {
    // Only a matched orphan delivers a part, or fails a recipient other than by timeout, here.
    const matched = now.messages.some((message, m) =>
      message.recipients.some((row, r) => {
        const was = before.messages[m]!.recipients[r]!;
        return (
          row.parts_delivered !== was.parts_delivered ||
          (row.status !== was.status && row.status !== 'timeout')
        );
      }),
    );
    if (matched) count('orphan matched by the sweep');
  }
}
