import fc from 'fast-check';

/**
 * The generated half of the money property test (test/api/money.property.test.ts): plain data,
 * so fast-check can shrink it. What a command targets (which earlier message, which earlier
 * request) is a number resolved against the state when its batch runs.
 */

/** Two accounts: `a` does most of the work, `b` is the other account a request may touch. */
export type Actor = 'a' | 'b';
export const ACTORS: readonly Actor[] = ['a', 'b'];

/** National suffixes of the numbers the sends draw from. */
export const NUMBER_POOL = [
  812_340_001, 812_340_002, 812_340_003, 812_340_004, 812_340_005, 812_340_006,
];
/** Pool indices on each account's own blocklist; index 5 is on the platform-wide one. */
export const OWN_BLOCKED: Record<Actor, readonly number[]> = { a: [4], b: [] };
export const PLATFORM_BLOCKED: readonly number[] = [5];
/** Pool indices in each account's contact group. */
export const GROUP_MEMBERS: Record<Actor, readonly number[]> = { a: [0, 2, 4], b: [1] };
/** Entries of msisdns that are not numbers: accepted as invalid recipients, never charged. */
export const NOT_NUMBERS = ['12345', '081234567x', '0712', '+66812340001'];

export type NumberEntry =
  | { readonly kind: 'pool'; readonly index: number; readonly form: '0' | '66' }
  | { readonly kind: 'invalid'; readonly text: string };

/** Where a send-shaped request goes: a send, a send with dryRun, or preview-cost. */
export type SendVia = 'send' | 'dry-run' | 'preview';

/** One thing wrong with a request, or none; each is refused with its own code. */
export type SendFault =
  | 'no-key'
  | 'unknown-key'
  | 'read-only-key'
  | 'bad-json'
  | 'unknown-field'
  | 'no-recipients'
  | 'unknown-sender'
  | 'unapproved-sender'
  | 'others-sender'
  | 'empty-content'
  | 'content-too-long'
  | 'past-schedule'
  | 'others-group';

const SEND_FAULTS: readonly SendFault[] = [
  'no-key',
  'unknown-key',
  'read-only-key',
  'bad-json',
  'unknown-field',
  'no-recipients',
  'unknown-sender',
  'unapproved-sender',
  'others-sender',
  'empty-content',
  'content-too-long',
  'past-schedule',
  'others-group',
];
// preview-cost takes no sender and no scheduledTime, and any key may call it.
const PREVIEW_FAULTS = SEND_FAULTS.filter(
  (f) =>
    ![
      'read-only-key',
      'unknown-sender',
      'unapproved-sender',
      'others-sender',
      'past-schedule',
    ].includes(f),
);

export interface SendCommand {
  readonly kind: 'send';
  readonly actor: Actor;
  readonly via: SendVia;
  readonly numbers: readonly NumberEntry[];
  readonly useGroup: boolean;
  readonly content: string;
  readonly scheduleInMinutes: number | null;
  readonly idempotencyKey: string | null;
  readonly fault: SendFault | null;
}

/** The same bytes and Idempotency-Key as an earlier keyed send (the `pick`-th, modulo). */
export interface RetryCommand {
  readonly kind: 'retry';
  readonly pick: number;
}

export interface CancelCommand {
  readonly kind: 'cancel';
  readonly actor: Actor;
  /** Whose message: the actor's own, or the other account's. */
  readonly owner: Actor;
  /**
   * Which of the owner's messages, as they stand when the batch starts: those scheduled and due
   * (what the batch's release races for), those scheduled, or any; the next wider set when the
   * narrower one is empty.
   */
  readonly among: 'due' | 'scheduled' | 'any';
  readonly pick: number;
  readonly fault: 'no-key' | 'unknown-message' | null;
}

/** A top-up through the addCredits use case (what `nok admin credits add` runs). */
export interface TopUpCommand {
  readonly kind: 'top-up';
  readonly actor: Actor;
  readonly amount: number;
  readonly fault: 'zero' | 'negative' | 'unknown-account' | null;
}

/**
 * One run of the scheduler's release of due scheduled messages, after `delayTurns` turns of the
 * event loop, so that it meets the batch's cancels at different points of their transactions.
 */
export interface ReleaseCommand {
  readonly kind: 'release';
  readonly delayTurns: number;
}

export type Command = SendCommand | RetryCommand | CancelCommand | TopUpCommand | ReleaseCommand;

/** Commands run at once (Promise.all), after the clock moves on by `advanceMinutes`. */
export interface Batch {
  readonly advanceMinutes: number;
  readonly commands: readonly Command[];
}

export interface Scenario {
  readonly credits: Record<Actor, number>;
  readonly pricePerPart: Record<Actor, number>;
  readonly batches: readonly Batch[];
}

const actor = fc.constantFrom<Actor>('a', 'a', 'a', 'b');

const numberEntry: fc.Arbitrary<NumberEntry> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('pool' as const),
      index: fc.nat({ max: NUMBER_POOL.length - 1 }),
      form: fc.constantFrom<'0' | '66'>('0', '66'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('invalid' as const),
      text: fc.constantFrom(...NOT_NUMBERS),
    }),
  },
);

// Thai and Latin letters, digits, a space: all single UTF-16 units, so a content of n units is
// 1 part up to 70 and ceil(n / 67) parts above. The first letter is never a space.
const LETTERS = ['a', 'Z', '7', '.', ' ', 'ก', 'ข', 'ไ'];
const content = fc
  .oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(70, 71, 134, 135, 201, 202))
  .chain((length) =>
    fc
      .array(fc.constantFrom(...LETTERS), { minLength: length - 1, maxLength: length - 1 })
      .map((rest) => 'M' + rest.join('')),
  );

function fault(faults: readonly SendFault[]): fc.Arbitrary<SendFault | null> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...faults) },
  );
}

const sendCommand: fc.Arbitrary<SendCommand> = fc
  .constantFrom<SendVia>('send', 'send', 'send', 'send', 'send', 'dry-run', 'preview')
  .chain((via) =>
    fc.record({
      kind: fc.constant('send' as const),
      actor,
      via: fc.constant(via),
      numbers: fc.array(numberEntry, { minLength: 1, maxLength: 6 }),
      useGroup: fc.boolean(),
      content,
      scheduleInMinutes:
        via === 'preview'
          ? fc.constant(null)
          : fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 60 })),
      idempotencyKey:
        via === 'preview'
          ? fc.constant(null)
          : fc.oneof(
              { weight: 2, arbitrary: fc.constant(null) },
              { weight: 1, arbitrary: fc.constantFrom('k0', 'k1') },
            ),
      fault: fault(via === 'preview' ? PREVIEW_FAULTS : SEND_FAULTS),
    }),
  );

const release: fc.Arbitrary<ReleaseCommand> = fc.record({
  kind: fc.constant('release' as const),
  delayTurns: fc.nat({ max: 40 }),
});

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: sendCommand },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: actor.chain((self) =>
      fc.record({
        kind: fc.constant('cancel' as const),
        actor: fc.constant(self),
        owner: fc.oneof(
          { weight: 5, arbitrary: fc.constant(self) },
          { weight: 1, arbitrary: fc.constant<Actor>(self === 'a' ? 'b' : 'a') },
        ),
        among: fc.constantFrom<CancelCommand['among']>('due', 'due', 'scheduled', 'any'),
        pick: fc.nat(),
        fault: fc.oneof(
          { weight: 8, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constantFrom('no-key' as const, 'unknown-message' as const) },
        ),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('top-up' as const),
      actor,
      amount: fc.integer({ min: 1, max: 40 }),
      fault: fc.oneof(
        { weight: 5, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'zero' as const,
            'negative' as const,
            'unknown-account' as const,
          ),
        },
      ),
    }),
  },
  { weight: 3, arbitrary: release },
);

const anyBatch: fc.Arbitrary<Batch> = fc.record({
  advanceMinutes: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 60 }) },
  ),
  commands: fc.array(command, { minLength: 1, maxLength: 8 }),
});

// Cancels of due messages beside a release, and a few other requests: the race the hold and its
// refund must survive, too rare among random batches to leave to chance.
const dueCancel: fc.Arbitrary<CancelCommand> = actor.chain((self) =>
  fc.record({
    kind: fc.constant('cancel' as const),
    actor: fc.constant(self),
    owner: fc.constant(self),
    among: fc.constant('due' as const),
    pick: fc.nat(),
    fault: fc.constant(null),
  }),
);
const raceBatch: fc.Arbitrary<Batch> = fc.record({
  advanceMinutes: fc.integer({ min: 10, max: 60 }),
  commands: fc
    .tuple(
      fc.array(dueCancel, { minLength: 1, maxLength: 4 }),
      release,
      fc.array(command, { maxLength: 3 }),
    )
    .map(([cancels, run, others]) => [...cancels, run, ...others]),
});

const batch = fc.oneof({ weight: 3, arbitrary: anyBatch }, { weight: 1, arbitrary: raceBatch });

export const scenario: fc.Arbitrary<Scenario> = fc.record({
  credits: fc.record({ a: fc.integer({ min: 0, max: 150 }), b: fc.integer({ min: 0, max: 40 }) }),
  pricePerPart: fc.record({ a: fc.integer({ min: 1, max: 3 }), b: fc.constant(1) }),
  batches: fc.array(batch, { minLength: 1, maxLength: 10 }),
});
