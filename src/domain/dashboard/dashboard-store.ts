import type { RecipientStatus } from '../statuses.js';

/** The delivery outcomes the dashboard's daily ratio shows. */
export const DELIVERY_RATIO_STATUSES = ['success', 'failed', 'expired', 'timeout'] as const;
export type DeliveryRatioStatus = (typeof DELIVERY_RATIO_STATUSES)[number] & RecipientStatus;

/** What dispatchers count per UTC hour and carrier (ADR 0030). */
export type DeliveryFigure = 'recipients' | 'submit-error' | 'receipt-latency';

/** One count of a figure in one UTC hour, as a dispatcher adds it. */
export interface DeliveryFigureDelta {
  readonly hourStart: number;
  readonly carrier: string;
  readonly figure: DeliveryFigure;
  /** '' for recipients; the submit error's code; a latency bucket's upper bound or `+Inf`. */
  readonly label: string;
  readonly count: number;
}

/**
 * Day buckets are given as their boundaries: `boundaries[i]` to `boundaries[i + 1]` is bucket
 * `i`; rows outside them are not read. Each query reads a bounded window through an index.
 */
export interface DashboardStore {
  /** Messages accepted, and their recipients, per bucket (by the message's created_at). */
  accountSendDays(
    accountId: number,
    boundaries: readonly number[],
  ): Promise<{ bucket: number; sends: number; recipients: number }[]>;
  /** Recipients per final status per bucket of their message's created_at, from its counters. */
  accountDeliveryDays(
    accountId: number,
    boundaries: readonly number[],
  ): Promise<{ bucket: number; status: DeliveryRatioStatus; count: number }[]>;
  /** Dispatchers' figures per bucket (by the hour they were counted in). */
  deliveryFigureDays(boundaries: readonly number[]): Promise<
    {
      bucket: number;
      carrier: string;
      figure: DeliveryFigure;
      label: string;
      count: number;
    }[]
  >;
}

/** Where dispatchers add their figures: one statement per flush, added to what is there. */
export interface DeliveryFiguresStore {
  addDeliveryFigures(deltas: readonly DeliveryFigureDelta[]): Promise<void>;
}
