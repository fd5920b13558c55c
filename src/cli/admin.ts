import type { Config } from '../config.js';
import { systemClock } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import type { Store } from '../domain/store.js';
import { createStore } from '../storage/store.js';
import type { AdminCommand, Work } from './admin-command.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import { flag, parseCommandArgs, UsageError } from './parse-args.js';
import { openMigratedDatabase } from '../runtime/open-migrated-database.js';

const EXIT_OK = 0;
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;

const HELP = [
  'Usage: nok admin <command> [options] [--json]',
  '',
  ...ADMIN_COMMANDS.flatMap((c) => [`  nok admin ${c.words} ${c.usage}`, `      ${c.summary}`]),
  '',
  'Every command prints one JSON object on stdout with --json, and human text without it.',
  'Exit codes: 0 done; 1 refused (the message on stderr says what to fix); 2 bad command line.',
  'The database is NOK_DATABASE_URL; it is migrated first if needed.',
].join('\n');

/** Where a command's answer (`out`) and complaints (`err`) go: the console, or a test's buffer. */
export interface AdminOutput {
  out(text: string): void;
  err(text: string): void;
}

const consoleOutput: AdminOutput = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};

/**
 * `nok admin …`: operator commands. Each opens the database, migrates it, does one use case
 * and closes it. Returns the process exit code.
 */
export async function runAdmin(
  config: Config,
  args: string[],
  io: AdminOutput = consoleOutput,
): Promise<number> {
  const [first, second, ...rest] = args;
  if (first === undefined) {
    io.err(HELP);
    return EXIT_USAGE;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    io.out(HELP);
    return EXIT_OK;
  }
  const command = ADMIN_COMMANDS.find((c) => c.words === `${first} ${second ?? ''}`.trim());
  if (!command) {
    io.err(`nok admin: unknown command "${[first, second].filter(Boolean).join(' ')}"\n\n${HELP}`);
    return EXIT_USAGE;
  }

  let work: Work;
  let json: boolean;
  try {
    const parsed = parseCommandArgs(rest, command.options, {
      allowPositionals: command.allowPositionals,
    });
    if (flag(parsed, 'help')) {
      io.out(usageOf(command));
      return EXIT_OK;
    }
    json = flag(parsed, 'json');
    work = command.prepare(parsed);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`nok admin ${command.words}: ${error.message}\n${usageOf(command)}`);
    return EXIT_USAGE;
  }

  try {
    const outcome = await withStore(config, work);
    io.out(json ? JSON.stringify(outcome.json) : outcome.text);
    return EXIT_OK;
  } catch (error) {
    io.err(`nok admin ${command.words}: ${describe(error)}`);
    return EXIT_REFUSED;
  }
}

async function withStore<T>(
  config: Config,
  work: (store: Store, nowMs: number, config: Config) => Promise<T>,
): Promise<T> {
  const nowMs = systemClock.now();
  const { database } = await openMigratedDatabase(config.databaseUrl, { nowMs });
  try {
    return await work(createStore(database.db), nowMs, config);
  } finally {
    await database.close();
  }
}

function usageOf(command: AdminCommand): string {
  return `Usage: nok admin ${command.words} ${command.usage} [--json]\n  ${command.summary}`;
}

// A DomainError's message already says what to fix; anything else (an unreachable database, an
// unreadable file) is shown as it is.
function describe(error: unknown): string {
  return error instanceof DomainError || error instanceof Error ? error.message : String(error);
}
