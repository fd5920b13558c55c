import { z } from 'zod';

/**
 * The carriers page (admins): what the operator listener's /status shows, from the same
 * in-process source. Shared with the browser: imports nothing but zod.
 */

export const carrierSchema = z.object({
  name: z.string(),
  /** Binds that can submit and are bound. */
  bindsUp: z.number().int(),
  bindsWanted: z.number().int(),
  /** Binds that take receipts and are bound. */
  receiversUp: z.number().int(),
  inFlight: z.number().int(),
  waiting: z.number().int(),
  submitsPerSecondLimit: z.number(),
  currentRatePerSecond: z.number(),
  lastError: z.string().nullable(),
});
export type Carrier = z.infer<typeof carrierSchema>;

export const dispatcherStatsSchema = z.object({
  chunksHeld: z.number().int(),
  partsInFlight: z.number().int(),
  outcomesQueued: z.number().int(),
  receiptsQueued: z.number().int(),
  submitted: z.number().int(),
  receipts: z.number().int(),
});

export const carriersStatusSchema = z.object({
  /** The carriers of this process's dispatcher; empty when it runs elsewhere. */
  carriers: z.array(carrierSchema),
  /** This process's dispatcher, or null when the dispatcher role runs elsewhere. */
  dispatcher: dispatcherStatsSchema.nullable(),
  /** Recipients of pending messages not yet handed to a dispatch chunk (the whole store). */
  queueDepth: z.number().int(),
  checkedAt: z.string(),
});
export type CarriersStatus = z.infer<typeof carriersStatusSchema>;
