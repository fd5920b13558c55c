import { z } from 'zod';
import { endpoints } from './endpoint.js';

/**
 * The carriers page (admins): every dispatcher process's carriers and work, as each publishes
 * what its operator listener's /status shows (ADR 0035), read from the store by whichever api
 * process answers. Shared with the browser: imports nothing but zod.
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
export type DispatcherStats = z.infer<typeof dispatcherStatsSchema>;

/** One carrier over every live dispatcher: binds, in flight, waiting and rates added up. */
export const carrierTotalSchema = carrierSchema.extend({
  /** Live dispatchers that have this carrier. */
  dispatchers: z.number().int(),
});
export type CarrierTotal = z.infer<typeof carrierTotalSchema>;

/** A dispatcher process that published its status within the last staleAfterSeconds. */
export const liveDispatcherSchema = z.object({
  /** Names the process: host:pid:random, as its chunk leases do. */
  owner: z.string(),
  startedAt: z.string(),
  /** When it last published its status. */
  reportedAt: z.string(),
  stats: dispatcherStatsSchema,
  carriers: z.array(carrierSchema),
});
export type LiveDispatcher = z.infer<typeof liveDispatcherSchema>;

/** A dispatcher not heard from for staleAfterSeconds: it died, or cannot reach the store. */
export const silentDispatcherSchema = liveDispatcherSchema.pick({
  owner: true,
  startedAt: true,
  reportedAt: true,
});
export type SilentDispatcher = z.infer<typeof silentDispatcherSchema>;

export const carriersStatusSchema = z.object({
  /** Every carrier of the live dispatchers, in the order they first list them. */
  carriers: z.array(carrierTotalSchema),
  /** Dispatcher processes that published lately, by owner. */
  dispatchers: z.array(liveDispatcherSchema),
  /** Left out of the figures above; shown for a few minutes, then forgotten. */
  silentDispatchers: z.array(silentDispatcherSchema),
  /** A dispatcher silent this long is no longer counted. */
  staleAfterSeconds: z.number().int(),
  /** Recipients of pending messages not yet handed to a dispatch chunk (the whole store). */
  queueDepth: z.number().int(),
  checkedAt: z.string(),
});
export type CarriersStatus = z.infer<typeof carriersStatusSchema>;

export const carrierEndpoints = endpoints({
  'GET /admin/carriers': { response: carriersStatusSchema },
});
