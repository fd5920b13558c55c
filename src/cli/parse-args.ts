import { parseArgs } from 'node:util';

/** The command line is malformed: the caller prints the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OptionKinds = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * `node:util` parseArgs in strict mode, its errors turned into {@link UsageError}. `--json` and
 * `--help` are understood by every command.
 */
export function parseCommandArgs(
  args: readonly string[],
  options: OptionKinds,
  { allowPositionals = false }: { allowPositionals?: boolean } = {},
): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
    return { values, positionals };
  } catch (error) {
    if (
      error instanceof TypeError &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      throw new UsageError(error.message.split('\n')[0] ?? error.message);
    }
    throw error;
  }
}

export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

export function optionalString(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${name} takes one value`);
  if (value.trim().length === 0) throw new UsageError(`--${name} must not be empty`);
  return value;
}

export function requiredString(parsed: ParsedArgs, name: string): string {
  const value = optionalString(parsed, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

export function stringList(parsed: ParsedArgs, name: string): string[] {
  const value = parsed.values[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== 'string' || item.trim().length === 0)
      throw new UsageError(`--${name} must not be empty`);
    return item;
  });
}

/** A whole number written in decimal (a leading `-` only with `--name=-5`). */
export function parseInteger(name: string, text: string): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new UsageError(`--${name} must be a whole number, not "${text}"`);
  }
  return value;
}

export function optionalInteger(parsed: ParsedArgs, name: string): number | undefined {
  const text = optionalString(parsed, name);
  return text === undefined ? undefined : parseInteger(name, text);
}

export function requiredInteger(parsed: ParsedArgs, name: string): number {
  return parseInteger(name, requiredString(parsed, name));
}

export function integerList(parsed: ParsedArgs, name: string): number[] {
  return stringList(parsed, name).map((text) => parseInteger(name, text));
}
