import { z } from 'zod';
import { LIMITS } from '../../../domain/limits.js';
import { endpoints } from './endpoint.js';

/**
 * The customer's dashboard and the platform admin's. Days are calendar days in the signed-in
 * person's time zone (their profile's, else the platform default), oldest first, ending today.
 * Shared with the browser: imports nothing but zod and the limits of domain/limits.ts.
 */

export const LOW_BALANCE_THRESHOLD_MAX = LIMITS.creditAmount;

/** The balance below which the console warns; 0 turns the warning off. */
export const lowBalanceThresholdSchema = z.number().int().min(0).max(LOW_BALANCE_THRESHOLD_MAX);

export const lowBalanceThresholdBodySchema = z.object({
  lowBalanceThreshold: lowBalanceThresholdSchema,
});
export type LowBalanceThresholdBody = z.infer<typeof lowBalanceThresholdBodySchema>;

export const accountDaySchema = z.object({
  /** `YYYY-MM-DD` in the time zone. */
  day: z.string(),
  /** Messages accepted that day. */
  sends: z.number().int(),
  /** Their recipients (every number of the send after duplicates were dropped). */
  recipients: z.number().int(),
  /** Those recipients by final status, as their messages' counters stand now. */
  success: z.number().int(),
  failed: z.number().int(),
  expired: z.number().int(),
  timeout: z.number().int(),
});
export type AccountDay = z.infer<typeof accountDaySchema>;

export const latestMessageSchema = z.object({
  uuid: z.string(),
  refNo: z.string(),
  sender: z.string(),
  content: z.string(),
  status: z.string(),
  recipientTotal: z.number().int(),
  createdAt: z.string(),
});
export type LatestMessage = z.infer<typeof latestMessageSchema>;

export const accountDashboardSchema = z.object({
  timeZone: z.string(),
  balance: z.number().int(),
  /** 0: no warning. */
  lowBalanceThreshold: z.number().int(),
  /** The balance is below a threshold that is set. */
  lowBalance: z.boolean(),
  days: z.array(accountDaySchema),
  /** The account's latest messages of those days, newest first. */
  latest: z.array(latestMessageSchema),
});
export type AccountDashboard = z.infer<typeof accountDashboardSchema>;

const percentilesShape = {
  /** Final receipts counted. */
  receipts: z.number().int(),
  /** Seconds from the carrier's acceptance to the final receipt, estimated from buckets. */
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  p99: z.number().nullable(),
};

export const platformDashboardSchema = z.object({
  timeZone: z.string(),
  carriers: z.array(z.string()),
  /** Recipients whose first part each carrier accepted, per day, by carrier name. */
  days: z.array(z.object({ day: z.string(), recipients: z.record(z.string(), z.number().int()) })),
  /** Parts carriers refused over the days shown, by code (SMPP command_status in hex, or timeout, closed, down…). */
  submitErrors: z.array(
    z.object({ code: z.string(), carrier: z.string(), count: z.number().int() }),
  ),
  latency: z.array(z.object({ carrier: z.string(), ...percentilesShape })),
  latencyDays: z.array(z.object({ day: z.string(), ...percentilesShape })),
});
export type PlatformDashboard = z.infer<typeof platformDashboardSchema>;

export const dashboardEndpoints = endpoints({
  'GET /dashboard': { response: accountDashboardSchema },
  'PUT /dashboard/low-balance-threshold': {
    body: lowBalanceThresholdBodySchema,
    response: lowBalanceThresholdBodySchema,
  },
  'GET /admin/dashboard': { response: platformDashboardSchema },
});
