import type { DashboardStore } from './dashboard-store.js';
import { DASHBOARD_DAYS } from './read-account-dashboard.js';
import { latencyQuantile } from './latency-percentiles.js';
import { lastDaysIn } from './zoned-days.js';

export interface LatencyPercentiles {
  /** Final receipts counted. */
  readonly receipts: number;
  /** Seconds, estimated from the latency buckets; null with no receipt. */
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

export interface PlatformDashboard {
  /** Every carrier that has a figure in the window, by name. */
  readonly carriers: string[];
  /** Per day (`YYYY-MM-DD` in the zone), recipients whose first part each carrier accepted. */
  readonly days: { day: string; recipients: Record<string, number> }[];
  /** Parts carriers refused over the window, by code and carrier, most first. */
  readonly submitErrors: { code: string; carrier: string; count: number }[];
  /** Receipt latency over the window, per carrier. */
  readonly latency: (LatencyPercentiles & { carrier: string })[];
  /** Receipt latency of all carriers, per day. */
  readonly latencyDays: (LatencyPercentiles & { day: string })[];
}

/**
 * The platform's last `DASHBOARD_DAYS` days in `timeZone`, from the figures every dispatcher
 * adds up per hour (ADR 0030): recipients per carrier per day, submit errors by code, and
 * receipt latency percentiles.
 */
export async function readPlatformDashboard(
  store: DashboardStore,
  input: { timeZone: string; nowMs: number },
): Promise<PlatformDashboard> {
  const days = lastDaysIn(input.timeZone, input.nowMs, DASHBOARD_DAYS);
  const boundaries = [...days.map((d) => d.startMs), days.at(-1)!.endMs];
  const rows = await store.deliveryFigureDays(boundaries);
  const carriers = new Set<string>();
  const recipients = days.map(() => new Map<string, number>());
  const errors = new Map<string, { code: string; carrier: string; count: number }>();
  const latencyByCarrier = new Map<string, Map<string, number>>();
  const latencyByDay = days.map(() => new Map<string, number>());
  for (const row of rows) {
    carriers.add(row.carrier);
    if (row.figure === 'recipients') {
      add(recipients[row.bucket], row.carrier, row.count);
    } else if (row.figure === 'submit-error') {
      const key = `${row.label}\u0000${row.carrier}`;
      const found = errors.get(key) ?? { code: row.label, carrier: row.carrier, count: 0 };
      found.count += row.count;
      errors.set(key, found);
    } else if (row.figure === 'receipt-latency') {
      let buckets = latencyByCarrier.get(row.carrier);
      if (!buckets) latencyByCarrier.set(row.carrier, (buckets = new Map()));
      add(buckets, row.label, row.count);
      add(latencyByDay[row.bucket], row.label, row.count);
    }
  }
  const names = [...carriers].sort();
  return {
    carriers: names,
    days: days.map((d, i) => ({
      day: d.day,
      recipients: Object.fromEntries(names.map((c) => [c, recipients[i]!.get(c) ?? 0])),
    })),
    submitErrors: [...errors.values()].sort(
      (a, b) => b.count - a.count || a.code.localeCompare(b.code),
    ),
    latency: names
      .filter((c) => latencyByCarrier.has(c))
      .map((carrier) => ({ carrier, ...percentiles(latencyByCarrier.get(carrier)!) })),
    latencyDays: days.map((d, i) => ({ day: d.day, ...percentiles(latencyByDay[i]!) })),
  };
}

function add(map: Map<string, number> | undefined, key: string, count: number): void {
  map?.set(key, (map.get(key) ?? 0) + count);
}

function percentiles(buckets: ReadonlyMap<string, number>): LatencyPercentiles {
  let receipts = 0;
  for (const count of buckets.values()) receipts += count;
  return {
    receipts,
    p50: latencyQuantile(buckets, 0.5),
    p90: latencyQuantile(buckets, 0.9),
    p99: latencyQuantile(buckets, 0.99),
  };
}
