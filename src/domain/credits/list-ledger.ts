import { parseIdCursor } from '../id-cursor.js';
import type { LedgerEntry, LedgerStore } from './ledger-store.js';

export interface LedgerPage {
  readonly items: LedgerEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * An account's ledger, newest first, paged by cursor: the cursor is the id of the last row
 * shown, so rows written while someone pages (a send, a refund) never shift or repeat a page.
 */
export async function listLedger(
  store: LedgerStore,
  input: { accountId: number; cursor?: string; limit: number },
): Promise<LedgerPage> {
  const beforeId = input.cursor === undefined ? null : parseIdCursor(input.cursor);
  const rows = await store.ledgerPage(input.accountId, beforeId, input.limit + 1);
  const items = rows.slice(0, input.limit);
  const more = rows.length > input.limit;
  return { items, nextCursor: more ? String(items[items.length - 1]!.id) : null };
}
