const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every line has, or that say nothing on a terminal; the rest are printed. */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/**
 * One pino JSON line as a line for people: local time, level, message, then the other fields
 * as `key=value` (strings bare when they need no quotes, anything else as JSON), e.g.
 * `14:03:27.512 INFO  bind up carrier=builtin-smsc bind="transceiver 1"`. An error field shows
 * its message inline and its stack on the lines after, indented. Not JSON: the line as it is.
 */
export function formatLogLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const head = [
    typeof record.time === 'number' ? clockTime(new Date(record.time)) : '',
    (LEVELS[record.level as number] ?? String(record.level)).padEnd(5),
    typeof record.msg === 'string' ? record.msg : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  const fields: string[] = [];
  const stacks: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (SHOWN_APART.has(key) || value === undefined) continue;
    if (isSerialisedError(value)) {
      fields.push(`${key}=${bare(value.message)}`);
      if (value.stack) stacks.push(value.stack);
      continue;
    }
    fields.push(`${key}=${typeof value === 'string' ? bare(value) : JSON.stringify(value)}`);
  }
  const line = fields.length > 0 ? `${head} ${fields.join(' ')}` : head;
  const indented = stacks.flatMap((stack) => stack.split('\n').map((l) => `    ${l}`));
  return [line, ...indented].join('\n') + '\n';
}

function clockTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms}`;
}

/** A string as is when it reads unambiguously after `=`; quoted JSON otherwise. */
function bare(text: string): string {
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** pino's err serialiser: { type, message, stack, ... }. */
function isSerialisedError(value: unknown): value is { message: string; stack?: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string' &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}
