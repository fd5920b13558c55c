import { z } from 'zod';
import { LIMITS } from '../../../domain/limits.js';
import { LEDGER_REASONS, type LedgerReason } from '../../../domain/credits/ledger-store.js';
import { endpoints } from './endpoint.js';

/**
 * Credits: the owner's balance and ledger, and an admin's grants and deductions.
 * Shared with the browser: imports nothing but zod, the domain's ledger reasons and its limits.
 */

export { LEDGER_REASONS, type LedgerReason };
export const ledgerReasonSchema = z.enum(LEDGER_REASONS);

export const LEDGER_PAGE_MAX = 100;

/** Paged by cursor: pass back the `nextCursor` of the page before. */
export const ledgerQuerySchema = z.object({
  cursor: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(LEDGER_PAGE_MAX).default(25),
});
export type LedgerQuery = z.input<typeof ledgerQuerySchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  /** Credits added; negative when taken. */
  delta: z.number().int(),
  reason: ledgerReasonSchema,
  /** The message a send, hold or refund is about (its uuid), else null. */
  messageUuid: z.string().nullable(),
  balanceAfter: z.number().int(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const creditsSchema = z.object({
  balance: z.number().int(),
  pricePerPart: z.number().int(),
  data: z.array(ledgerEntrySchema),
  /** The cursor of the next (older) page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type Credits = z.infer<typeof creditsSchema>;

export const CREDIT_NOTE_MAX = 500;

/** An admin's grant or deduction; the note is kept on the ledger row the owner sees. */
export const adjustCreditsBodySchema = z.object({
  kind: z.enum(['grant', 'deduct']),
  amount: z.number().int().min(1).max(LIMITS.creditAmount),
  note: z.string().trim().min(1).max(CREDIT_NOTE_MAX),
});
export type AdjustCreditsBody = z.infer<typeof adjustCreditsBodySchema>;

export const balanceSchema = z.object({ balance: z.number().int() });

export const creditEndpoints = endpoints({
  'GET /credits': { query: ledgerQuerySchema, response: creditsSchema },
});
