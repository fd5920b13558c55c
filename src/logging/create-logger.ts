import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { formatLogLine } from './format-log-line.js';

/** NOK_LOG_FORMAT. */
export type LogFormatSetting = 'auto' | 'pretty' | 'json';
export type LogFormat = 'pretty' | 'json';

/** `auto` is readable lines for a person at a terminal, and JSON lines for anything else. */
export function logFormatFor(setting: LogFormatSetting, isTTY: boolean): LogFormat {
  return setting === 'auto' ? (isTTY ? 'pretty' : 'json') : setting;
}

/** Where log lines go: stdout by default. */
export interface LogOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * The process's one root logger (pino). JSON lines are pino's own; readable lines are the same
 * records formatted in this process, written synchronously, so that they keep their order with
 * whatever else the command prints (the demo banner of `nok start`).
 */
export function createLogger(
  settings: { readonly logLevel: LevelWithSilent; readonly logFormat: LogFormatSetting },
  output: LogOutput = process.stdout,
): Logger {
  const format = logFormatFor(settings.logFormat, output.isTTY === true);
  const destination: DestinationStream =
    format === 'pretty'
      ? { write: (line) => void output.write(formatLogLine(line)) }
      : output === process.stdout
        ? pino.destination({ dest: 1, sync: true })
        : { write: (line) => void output.write(line) };
  return pino({ level: settings.logLevel }, destination);
}
