import type { AuditStore } from '../audit/audit-store.js';
import type { Transactor } from '../transactor.js';
import type { BlocklistStore } from './blocklist-store.js';
import type { AccountStore } from '../accounts/account-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { normaliseNumbers } from './normalise-numbers.js';
import {
  MAX_IMPORT_NUMBERS,
  REPORT_LINE_LIMIT,
  type NumberImportReport,
  type NumberRows,
} from './number-import.js';
import { parseNumberRows } from './parse-number-lines.js';

/** The blocklist scope that applies to every account. */
export const PLATFORM_SCOPE = 0;

interface BlocklistChange {
  /** An account's id, or {@link PLATFORM_SCOPE}. */
  readonly scope: number;
  readonly nowMs: number;
  readonly actor?: AuditActor;
}

/**
 * Adds numbers that are never sent to: for one account, or platform-wide with
 * {@link PLATFORM_SCOPE}. All or nothing: one malformed number refuses the whole request, so an
 * operator's typo never leaves a number silently unblocked. Returns how many were new.
 */
export async function addToBlocklist(
  store: AccountStore & Transactor<BlocklistStore & AuditStore>,
  input: BlocklistChange & { numbers: readonly string[] },
): Promise<{ scope: number; added: number }> {
  const numbers = normaliseNumbers(input.numbers);
  if (input.scope !== PLATFORM_SCOPE) await requireAccount(store, input.scope);
  return store.transaction(async (tx) => {
    const added = await tx.addToBlocklist(input.scope, numbers, input.nowMs);
    await audit(tx, input, 'blocklist.add', { added, numbers: numbers.slice(0, 20) });
    return { scope: input.scope, added };
  });
}

/**
 * Imports a number list into a blocklist scope, read as it arrives; lines that are not numbers
 * are reported, the valid numbers and the audit line written in one transaction.
 */
export async function importToBlocklist(
  store: AccountStore & Transactor<BlocklistStore & AuditStore>,
  input: BlocklistChange & { rows: NumberRows },
): Promise<NumberImportReport> {
  const parsed = await parseNumberRows(input.rows, {
    sampleLimit: REPORT_LINE_LIMIT,
    maxNumbers: MAX_IMPORT_NUMBERS,
  });
  if (input.scope !== PLATFORM_SCOPE) await requireAccount(store, input.scope);
  return store.transaction(async (tx) => {
    const added = await tx.addToBlocklist(input.scope, parsed.numbers, input.nowMs);
    const report: NumberImportReport = {
      added,
      alreadyPresent: parsed.numbers.length - added,
      duplicates: parsed.duplicates,
      rejected: parsed.invalid,
      rejectedLines: parsed.invalidSamples,
    };
    await audit(tx, input, 'blocklist.import', {
      added,
      alreadyPresent: report.alreadyPresent,
      duplicates: report.duplicates,
      rejected: report.rejected,
    });
    return report;
  });
}

/** Takes numbers off one blocklist scope; a number not on it is ignored. */
export async function removeFromBlocklist(
  store: Transactor<BlocklistStore & AuditStore>,
  input: BlocklistChange & { numbers: readonly string[] },
): Promise<{ removed: number }> {
  const numbers = normaliseNumbers(input.numbers);
  return store.transaction(async (tx) => {
    const removed = await tx.removeFromBlocklist(input.scope, numbers);
    await audit(tx, input, 'blocklist.remove', { removed, numbers: numbers.slice(0, 20) });
    return { removed };
  });
}

function audit(
  tx: AuditStore,
  input: BlocklistChange,
  action: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const platform = input.scope === PLATFORM_SCOPE;
  return recordAudit(tx, {
    ...(input.actor ?? SYSTEM_ACTOR),
    accountId: platform ? null : input.scope,
    action,
    targetType: 'blocklist',
    targetId: platform ? 'platform' : input.scope,
    detail,
    at: input.nowMs,
  });
}
