import {
  SMSC_PRESETS,
  SMSC_TEST_HOOKS,
  resolveSmscOptions,
  type SmscSettings,
} from './smsc-options.js';

type FieldKind =
  'string' | 'number' | 'boolean' | 'number-or-null' | 'delay' | 'accounts' | 'prefixes';

const FIELDS: Readonly<Record<keyof SmscSettings, FieldKind>> = {
  preset: 'string',
  host: 'string',
  port: 'number',
  accounts: 'accounts',
  messageIdFormat: 'string',
  seed: 'number',
  deliveredRatio: 'number',
  failedRatio: 'number',
  expiredRatio: 'number',
  rejectedRatio: 'number',
  noReceiptRatio: 'number',
  invalidPrefixes: 'prefixes',
  receiptDelayMs: 'delay',
  submitResponseDelayMs: 'number',
  throttleAboveSubmitsPerSecond: 'number-or-null',
  refuseBinds: 'boolean',
  dropConnectionAfterSubmits: 'number-or-null',
  maxBindsPerSystemId: 'number-or-null',
  receiptRetryIntervalMs: 'number',
  receiptMaxAttempts: 'number',
};

/**
 * The SMSC settings from plain JSON (NOK_SMSC_OPTIONS, a bench variable), e.g.
 * `{"preset":"demo","port":2775,"receiptDelayMs":{"min":100,"max":900}}`. Unknown fields, test
 * hooks (SmscTestHooks) and wrong types are errors that name the field; the values are then
 * checked as `startSmsc` would.
 */
export function parseSmscOptions(json: unknown): SmscSettings {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RangeError('SMSC options must be a JSON object, e.g. {"preset":"happy"}');
  }
  for (const [key, value] of Object.entries(json)) {
    if ((SMSC_TEST_HOOKS as readonly string[]).includes(key)) {
      throw new RangeError(
        `SMSC options: ${key} is a test hook, not a setting; tests pass it to startSmsc in code`,
      );
    }
    const kind = Object.hasOwn(FIELDS, key) ? FIELDS[key as keyof typeof FIELDS] : undefined;
    if (kind === undefined) {
      throw new RangeError(
        `SMSC options: unknown field "${key}"; known: ${Object.keys(FIELDS).join(', ')}`,
      );
    }
    const problem = problemWith(kind, value);
    if (problem !== null) throw new RangeError(`SMSC options: ${key} ${problem}`);
  }
  const options = json as SmscSettings;
  if (options.preset !== undefined && !(options.preset in SMSC_PRESETS)) {
    throw new RangeError(
      `SMSC options: preset must be one of ${Object.keys(SMSC_PRESETS).join(', ')}`,
    );
  }
  if (
    options.messageIdFormat !== undefined &&
    !['hex', 'decimal'].includes(options.messageIdFormat)
  ) {
    throw new RangeError('SMSC options: messageIdFormat must be "hex" or "decimal"');
  }
  try {
    resolveSmscOptions(options);
  } catch (error) {
    throw new RangeError(`SMSC options: ${(error as Error).message}`, { cause: error });
  }
  return options;
}

function problemWith(kind: FieldKind, value: unknown): string | null {
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === kind ? null : `must be a ${kind}`;
    case 'number-or-null':
      return value === null || typeof value === 'number'
        ? null
        : 'must be a number, or null for no limit';
    case 'delay':
      return typeof value === 'number' || isMinMax(value)
        ? null
        : 'must be a number of ms or {"min":…, "max":…}';
    case 'prefixes':
      return Array.isArray(value) && value.every((p) => typeof p === 'string')
        ? null
        : 'must be a list of digit strings, e.g. ["66600"]';
    case 'accounts':
      return Array.isArray(value) && value.every(isAccount)
        ? null
        : 'must be a list of {"systemId":…, "password":…}';
  }
}

function isMinMax(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value).sort().join();
  const { min, max } = value as { min?: unknown; max?: unknown };
  return keys === 'max,min' && typeof min === 'number' && typeof max === 'number';
}

function isAccount(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value).sort().join();
  const { systemId, password } = value as { systemId?: unknown; password?: unknown };
  return (
    keys === 'password,systemId' && typeof systemId === 'string' && typeof password === 'string'
  );
}
