/**
 * How the built-in SMSC behaves. Every field is optional: a preset (default `happy`) fills what
 * is left out. The settings are also accepted as plain JSON (`parseSmscOptions`), which is how
 * NOK_SMSC_OPTIONS passes them; the test hooks and the logger are passed in code only.
 */
export type SmscOptions = SmscSettings & SmscTestHooks & { readonly logger?: SmscLogger };

/** What an operator may set (NOK_SMSC_OPTIONS): the simulator's behaviour as a carrier. */
export interface SmscSettings {
  /** Named behaviour to start from; fields given here override it. */
  readonly preset?: SmscPresetName;
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Who may bind. Default: system_id `nok`, password `nok`. */
  readonly accounts?: readonly SmscAccount[];
  /** submit_sm_resp message ids: lower-case hexadecimal (default) or decimal. */
  readonly messageIdFormat?: 'hex' | 'decimal';
  /** Seed of the per-number fate hash and of the receipt delays: same seed, same run. */
  readonly seed?: number;
  /**
   * Share of destination numbers whose parts get each receipt. Without `deliveredRatio`,
   * delivered takes what the others leave; with it, the five are weights scaled to sum to 1.
   */
  readonly deliveredRatio?: number;
  readonly failedRatio?: number;
  readonly expiredRatio?: number;
  readonly rejectedRatio?: number;
  readonly noReceiptRatio?: number;
  /** Destinations starting with one of these get ESME_RINVDSTADR. */
  readonly invalidPrefixes?: readonly string[];
  readonly receiptDelayMs?: number | { readonly min: number; readonly max: number };
  readonly submitResponseDelayMs?: number;
  /** Answer ESME_RTHROTTLED to submits beyond this rate per system_id; null: no limit. */
  readonly throttleAboveSubmitsPerSecond?: number | null;
  /** Answer every bind with ESME_RBINDFAIL. */
  readonly refuseBinds?: boolean;
  /** Destroy a connection when its Nth submit arrives, without answering it; null: never. */
  readonly dropConnectionAfterSubmits?: number | null;
  /** Binds beyond this many open per system_id get ESME_RBINDFAIL; null: no limit. */
  readonly maxBindsPerSystemId?: number | null;
  /** A deliver_sm without its deliver_sm_resp after this long is sent again. */
  readonly receiptRetryIntervalMs?: number;
  /** Times a receipt is sent at most before it is dropped. */
  readonly receiptMaxAttempts?: number;
}

/**
 * Hooks for tests, benchmarks and scripts, which pass them in code. They are no settings: a
 * fixed first id repeats ids across restarts, a record of every submit grows without bound, and
 * receipts before responses stage a race on purpose.
 */
export interface SmscTestHooks {
  /**
   * The first message id, as a number. Default: now × 1,000, so ids do not repeat across restarts
   * at under 1,000 submits per millisecond; tests pass a fixed value.
   */
  readonly firstMessageId?: number;
  /**
   * Send each receipt before its submit_sm_resp, which waits for the deliver_sm_resp (or one
   * receipt retry interval): the race in which a receipt's message id is not yet known.
   */
  readonly receiptBeforeResponse?: boolean;
  /** Keep a record of every accepted submit in `stats.submits` (off: benchmarks stay lean). */
  readonly recordSubmits?: boolean;
}

/** The fields of SmscTestHooks, which NOK_SMSC_OPTIONS refuses. */
export const SMSC_TEST_HOOKS: readonly (keyof SmscTestHooks)[] = [
  'firstMessageId',
  'receiptBeforeResponse',
  'recordSubmits',
];

/** The two levels the simulator logs at, in pino's argument order. */
export interface SmscLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface SmscAccount {
  readonly systemId: string;
  readonly password: string;
}

export type SmscPresetName =
  'happy' | 'demo' | 'throttling' | 'no-receipt' | 'bind-refused' | 'slow' | 'drop';

/** The options after the preset and the defaults are applied; ratios become fate shares. */
export interface ResolvedSmscOptions {
  readonly host: string;
  readonly port: number;
  readonly accounts: readonly SmscAccount[];
  readonly messageIdFormat: 'hex' | 'decimal';
  readonly firstMessageId: number;
  readonly seed: number;
  /** Shares summing to 1, in the order the fate hash walks them. */
  readonly fates: FateShares;
  readonly invalidPrefixes: readonly string[];
  readonly receiptDelayMs: { readonly min: number; readonly max: number };
  readonly submitResponseDelayMs: number;
  readonly receiptBeforeResponse: boolean;
  readonly throttleAboveSubmitsPerSecond: number | null;
  readonly refuseBinds: boolean;
  readonly dropConnectionAfterSubmits: number | null;
  readonly maxBindsPerSystemId: number | null;
  readonly receiptRetryIntervalMs: number;
  readonly receiptMaxAttempts: number;
  readonly recordSubmits: boolean;
  readonly logger: SmscLogger;
}

export interface FateShares {
  readonly delivered: number;
  readonly failed: number;
  readonly expired: number;
  readonly rejected: number;
  readonly noReceipt: number;
}

/** Named behaviours for tests and the demo, after jasmin's family of fake SMSCs. */
export const SMSC_PRESETS: Readonly<Record<SmscPresetName, SmscOptions>> = {
  happy: {},
  demo: {
    deliveredRatio: 0.9,
    failedRatio: 0.04,
    expiredRatio: 0.02,
    rejectedRatio: 0.02,
    noReceiptRatio: 0.02,
    receiptDelayMs: { min: 200, max: 3000 },
  },
  throttling: { throttleAboveSubmitsPerSecond: 100 },
  'no-receipt': { noReceiptRatio: 1 },
  'bind-refused': { refuseBinds: true },
  slow: { submitResponseDelayMs: 200, receiptDelayMs: { min: 500, max: 2000 } },
  drop: { dropConnectionAfterSubmits: 10 },
};

const SILENT: SmscLogger = { info: () => {}, warn: () => {} };

const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  accounts: [{ systemId: 'nok', password: 'nok' }],
  messageIdFormat: 'hex',
  seed: 1,
  invalidPrefixes: [],
  receiptDelayMs: 0,
  submitResponseDelayMs: 0,
  receiptBeforeResponse: false,
  throttleAboveSubmitsPerSecond: null,
  refuseBinds: false,
  dropConnectionAfterSubmits: null,
  maxBindsPerSystemId: null,
  receiptRetryIntervalMs: 10_000,
  receiptMaxAttempts: 3,
  recordSubmits: false,
} as const;

/** The options with the preset and defaults applied; throws a RangeError naming a bad field. */
export function resolveSmscOptions(
  options: SmscOptions = {},
  now = Date.now(),
): ResolvedSmscOptions {
  const preset = options.preset ?? 'happy';
  if (!(preset in SMSC_PRESETS)) {
    throw new RangeError(`preset: "${preset}" is none of ${Object.keys(SMSC_PRESETS).join(', ')}`);
  }
  const o = { ...DEFAULTS, ...SMSC_PRESETS[preset], ...withoutUndefined(options) };
  const delay =
    typeof o.receiptDelayMs === 'number'
      ? { min: o.receiptDelayMs, max: o.receiptDelayMs }
      : o.receiptDelayMs;
  checkInteger('port', o.port, 0, 65535);
  checkInteger('receiptDelayMs.min', delay.min, 0);
  checkInteger('receiptDelayMs.max', delay.max, delay.min);
  checkInteger('submitResponseDelayMs', o.submitResponseDelayMs, 0);
  checkInteger('receiptRetryIntervalMs', o.receiptRetryIntervalMs, 1);
  checkInteger('receiptMaxAttempts', o.receiptMaxAttempts, 1);
  checkInteger('seed', o.seed, 0, 0xffffffff);
  const firstMessageId = o.firstMessageId ?? now * 1000;
  checkInteger('firstMessageId', firstMessageId, 0, Number.MAX_SAFE_INTEGER);
  for (const name of [
    'throttleAboveSubmitsPerSecond',
    'dropConnectionAfterSubmits',
    'maxBindsPerSystemId',
  ] as const) {
    if (o[name] !== null) checkInteger(name, o[name], 1);
  }
  if (o.accounts.length === 0)
    throw new RangeError('accounts: list at least one { systemId, password }');
  for (const p of o.invalidPrefixes) {
    if (typeof p !== 'string' || !/^\d+$/.test(p))
      throw new RangeError(`invalidPrefixes: "${p}" is not a string of digits`);
  }
  return {
    host: o.host,
    port: o.port,
    accounts: o.accounts,
    messageIdFormat: o.messageIdFormat,
    firstMessageId,
    seed: o.seed,
    fates: resolveFates(o),
    invalidPrefixes: o.invalidPrefixes,
    receiptDelayMs: delay,
    submitResponseDelayMs: o.submitResponseDelayMs,
    receiptBeforeResponse: o.receiptBeforeResponse,
    throttleAboveSubmitsPerSecond: o.throttleAboveSubmitsPerSecond,
    refuseBinds: o.refuseBinds,
    dropConnectionAfterSubmits: o.dropConnectionAfterSubmits,
    maxBindsPerSystemId: o.maxBindsPerSystemId,
    receiptRetryIntervalMs: o.receiptRetryIntervalMs,
    receiptMaxAttempts: o.receiptMaxAttempts,
    recordSubmits: o.recordSubmits,
    logger: o.logger ?? SILENT,
  };
}

function resolveFates(o: SmscOptions): FateShares {
  const others = {
    failed: o.failedRatio ?? 0,
    expired: o.expiredRatio ?? 0,
    rejected: o.rejectedRatio ?? 0,
    noReceipt: o.noReceiptRatio ?? 0,
  };
  for (const [name, value] of Object.entries({ delivered: o.deliveredRatio ?? 0, ...others })) {
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new RangeError(`${name}Ratio: must be a number from 0 to 1, got ${value}`);
    }
  }
  const sumOfOthers = others.failed + others.expired + others.rejected + others.noReceipt;
  if (o.deliveredRatio === undefined) {
    if (sumOfOthers > 1 + 1e-9) {
      throw new RangeError(
        `failed, expired, rejected and noReceipt ratios add up to ${sumOfOthers}; at most 1`,
      );
    }
    return { delivered: Math.max(0, 1 - sumOfOthers), ...others };
  }
  const total = o.deliveredRatio + sumOfOthers;
  if (total === 0) throw new RangeError('the ratios are all 0; give at least one a share');
  return {
    delivered: o.deliveredRatio / total,
    failed: others.failed / total,
    expired: others.expired / total,
    rejected: others.rejected / total,
    noReceipt: others.noReceipt / total,
  };
}

function checkInteger(
  name: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `${name}: must be a whole number from ${min} to ${max}, got ${String(value)}`,
    );
  }
}

function withoutUndefined(options: SmscOptions): SmscOptions {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as SmscOptions;
}
