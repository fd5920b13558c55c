import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ExplainedError } from '../domain/explained-error.js';

/**
 * The carrier file (`NOK_CARRIERS_FILE`): the SMPP carriers Nok delivers to, how to bind to each
 * and which numbers each one takes. docs/carriers.example.json shows every field.
 */
export interface CarrierConfig {
  readonly carriers: readonly CarrierSettings[];
}

export interface CarrierSettings {
  /** Unique in the file; names the carrier in logs, metrics and stored submissions. */
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly systemId: string;
  readonly password: string;
  readonly systemType: string;
  /** One transceiver per bind, or a transmitter and a receiver per bind. */
  readonly bindMode: 'transceiver' | 'transmitter+receiver';
  /** Binds (or TX+RX pairs) held open to this carrier. */
  readonly binds: number;
  /** Submits in flight per bind without their submit_sm_resp. */
  readonly windowSize: number;
  /** The carrier's limit, shared by all its binds. */
  readonly submitsPerSecond: number;
  readonly enquireLinkIntervalMs: number;
  /** How long a request waits for its response before the bind is deemed broken. */
  readonly responseTimeoutMs: number;
  /**
   * An accepted part whose receipt has not come after this long gives its recipient `timeout`
   * (a later receipt is then ignored). Carriers keep trying a handset for a day or two.
   */
  readonly receiptWindowMs: number;
  /** Backoff between reconnect attempts: doubles from the initial delay up to the maximum. */
  readonly reconnect: { readonly initialDelayMs: number; readonly maxDelayMs: number };
  readonly routing: {
    /** International-form number prefixes (`668`, `6681`); empty: every number. */
    readonly prefixes: readonly string[];
    /** Among carriers with equally long matching prefixes, lower goes first. */
    readonly priority: number;
  };
}

/** The file is unreadable or wrong; `problems` names each bad field and how to fix it. */
export class CarrierConfigError extends ExplainedError {
  override readonly name = 'CarrierConfigError';
  constructor(
    message: string,
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A whole number in [min, max]; `what` says what it counts, for the error messages. */
const integer = (min: number, max: number, what: string, maxHint = what) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `is required: ${what}, from ${min} to ${max}`
          : `must be a number: ${what}, from ${min} to ${max}`,
    })
    .int({ error: `must be a whole number: ${what}` })
    .min(min, { error: `must be at least ${min}: ${what}` })
    .max(max, { error: `must be at most ${max}: ${maxHint}` });

/** SMPP 3.4 §4.1.1: C-Octet strings of at most 16, 9 and 13 octets, the NUL included. */
const cString = (maxLength: number, what: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`,
    })
    .max(maxLength, { error: `must be at most ${maxLength} characters (SMPP 3.4 §4.1.1)` })
    .regex(/^[\x20-\x7e]*$/, { error: 'must be printable ASCII (SMPP 3.4 C-Octet String)' });

const prefix = z
  .string({ error: 'must be a string of digits, e.g. "668"' })
  .regex(/^[1-9]\d{0,14}$/, {
    error:
      'must be digits in international form without "+" ("668", not "08" or "+668"): numbers are matched as 66XXXXXXXXX',
  });

const carrierSchema = z.strictObject(
  {
    $comment: z.string().optional(),
    name: z
      .string({ error: 'is required: a short unique name such as "ais-1"' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, {
        error: 'must be 1-32 letters, digits, "-" or "_", starting with a letter or digit',
      }),
    host: z
      .string({ error: 'is required: the SMSC host name or IP address' })
      .min(1, { error: 'must not be empty: the SMSC host name or IP address' }),
    port: integer(1, 65535, "the SMSC's TCP port"),
    systemId: cString(15, 'the system_id the carrier gave you').min(1, {
      error: 'must not be empty: the system_id the carrier gave you',
    }),
    password: cString(8, 'the bind password the carrier gave you'),
    systemType: cString(12, 'the system_type the carrier asks for, usually ""').default(''),
    bindMode: z
      .enum(['transceiver', 'transmitter+receiver'], {
        error: 'must be "transceiver" or "transmitter+receiver" (separate TX and RX binds)',
      })
      .default('transceiver'),
    binds: integer(1, 100, 'binds (or TX+RX pairs) held open').default(1),
    // DESIGN §4: the npm smpp library decodes a socket's whole backlog in one synchronous burst;
    // windows beyond 100 stalled the event loop for seconds when probed. Our own session keeps
    // the same ceiling: past it, throughput comes from more binds, not a deeper window.
    windowSize: integer(
      1,
      100,
      'submits in flight per bind',
      'larger windows stalled the event loop; add binds for more throughput',
    ).default(50),
    submitsPerSecond: integer(1, 100_000, 'submits per second across all binds').default(1000),
    enquireLinkIntervalMs: integer(1000, 3_600_000, 'milliseconds between enquire_links').default(
      30_000,
    ),
    responseTimeoutMs: integer(100, 600_000, 'milliseconds to wait for a response').default(10_000),
    receiptWindowMs: integer(
      1000,
      30 * 86_400_000,
      'milliseconds to wait for a receipt before the recipient times out',
    ).default(172_800_000),
    reconnect: z
      .strictObject(
        {
          initialDelayMs: integer(10, 600_000, 'milliseconds before the first retry').default(1000),
          maxDelayMs: integer(10, 3_600_000, 'milliseconds between retries at most').default(
            30_000,
          ),
        },
        { error: 'must be an object { initialDelayMs, maxDelayMs }' },
      )
      .refine((r) => r.maxDelayMs >= r.initialDelayMs, {
        error: 'maxDelayMs must be at least initialDelayMs',
        path: ['maxDelayMs'],
      })
      .default({ initialDelayMs: 1000, maxDelayMs: 30_000 }),
    routing: z
      .strictObject(
        {
          prefixes: z
            .array(prefix, { error: 'must be a list of number prefixes, [] for every number' })
            .default([]),
          priority: integer(-1_000_000, 1_000_000, 'lower goes first').default(0),
        },
        { error: 'must be an object { prefixes, priority }' },
      )
      .default({ prefixes: [], priority: 0 }),
  },
  { error: 'must be an object describing one carrier' },
);

const fileSchema = z
  .strictObject(
    {
      $comment: z.string().optional(),
      carriers: z
        .array(carrierSchema, { error: 'is required: a list of carriers' })
        .min(1, { error: 'must list at least one carrier' }),
    },
    { error: 'the file must hold a JSON object { "carriers": [...] }' },
  )
  .superRefine((file, context) => {
    const seen = new Set<string>();
    file.carriers.forEach((carrier, index) => {
      if (seen.has(carrier.name)) {
        context.addIssue({
          code: 'custom',
          path: ['carriers', index, 'name'],
          message: `"${carrier.name}" is already used by another carrier; names must be unique`,
        });
      }
      seen.add(carrier.name);
    });
  });

/** Validates an already-parsed carrier file; throws a {@link CarrierConfigError} naming each bad field. */
export function parseCarrierConfig(json: unknown): CarrierConfig {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(describeIssue);
    throw new CarrierConfigError(`Invalid carrier file: ${problems.join('; ')}`, problems);
  }
  const carriers = parsed.data.carriers.map(({ $comment: _comment, ...carrier }) =>
    Object.freeze({
      ...carrier,
      reconnect: Object.freeze(carrier.reconnect),
      routing: Object.freeze({
        prefixes: Object.freeze(carrier.routing.prefixes),
        priority: carrier.routing.priority,
      }),
    }),
  );
  return Object.freeze({ carriers: Object.freeze(carriers) });
}

/** Reads and validates the carrier file at `path` (the setting `NOK_CARRIERS_FILE`). */
export async function loadCarrierConfig(path: string): Promise<CarrierConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CarrierConfigError(
      `Cannot read the carrier file ${path} (${reason}); check NOK_CARRIERS_FILE`,
      [reason],
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CarrierConfigError(
      `The carrier file ${path} is not valid JSON: ${reason}`,
      [reason],
      {
        cause: error,
      },
    );
  }
  try {
    return parseCarrierConfig(json);
  } catch (error) {
    if (!(error instanceof CarrierConfigError)) throw error;
    throw new CarrierConfigError(
      `Invalid carrier file ${path}: ${error.problems.join('; ')}`,
      error.problems,
    );
  }
}

/**
 * The carriers to try for `msisdn` (66XXXXXXXXX), in failover order: carriers with a prefix that
 * matches, the longest match first, then by priority, then in file order; after them the
 * carriers without prefixes (they take every number), by priority then file order. A carrier
 * whose prefixes all miss is not in the list; an empty list means no carrier takes the number.
 */
export function routeFor(config: CarrierConfig, msisdn: string): CarrierSettings[] {
  const candidates: { carrier: CarrierSettings; match: number; index: number }[] = [];
  config.carriers.forEach((carrier, index) => {
    const match = longestMatch(carrier.routing.prefixes, msisdn);
    if (match >= 0) candidates.push({ carrier, match, index });
  });
  candidates.sort(
    (a, b) =>
      b.match - a.match ||
      a.carrier.routing.priority - b.carrier.routing.priority ||
      a.index - b.index,
  );
  return candidates.map((c) => c.carrier);
}

/** Length of the longest prefix of `prefixes` that starts `msisdn`; 0 for none listed; -1 for a miss. */
function longestMatch(prefixes: readonly string[], msisdn: string): number {
  if (prefixes.length === 0) return 0;
  let longest = -1;
  for (const p of prefixes) {
    if (p.length > longest && msisdn.startsWith(p)) longest = p.length;
  }
  return longest;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path
    .map((key, i) =>
      typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `${where || 'the file'}: unknown field ${keys}; check its spelling against docs/carriers.example.json`;
  }
  return where ? `${where}: ${issue.message}` : issue.message;
}
