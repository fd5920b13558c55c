import type { Config } from '../config.js';
import type { Store } from '../domain/store.js';
import type { OptionKinds, ParsedArgs } from './parse-args.js';

// The shape of a `nok admin` command, shared by the files that define them (admin-commands.ts,
// webhook-commands.ts) and the runner that parses and runs them (admin.ts).

/** What a command prints: one JSON object with `--json`, else the text. */
export interface Outcome {
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** A command's use case, once the store is open; `config` is the settings `nok` runs with. */
export type Work = (store: Store, nowMs: number, config: Config) => Promise<Outcome>;

export interface AdminCommand {
  /** The two words after `nok admin`, e.g. `account create`. */
  readonly words: string;
  readonly usage: string;
  readonly summary: string;
  readonly options: OptionKinds;
  readonly allowPositionals?: boolean;
  /** Reads the command line (throwing UsageError) and returns the work, run once the store is open. */
  prepare(parsed: ParsedArgs): Work;
}
