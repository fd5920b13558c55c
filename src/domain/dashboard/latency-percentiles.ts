/**
 * Receipt latency buckets, in seconds: the upper bounds of nok_receipt_latency_seconds
 * (metrics.ts), so the dashboard and Prometheus agree.
 */
export const RECEIPT_LATENCY_BUCKETS_S = [
  0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400,
] as const;

const BUCKET_LABELS = RECEIPT_LATENCY_BUCKETS_S.map(String);

/** The label of the bucket a latency falls in: its upper bound, or `+Inf`. */
export function latencyBucketLabel(latencyMs: number): string {
  const seconds = latencyMs / 1000;
  for (let i = 0; i < RECEIPT_LATENCY_BUCKETS_S.length; i++) {
    if (seconds <= RECEIPT_LATENCY_BUCKETS_S[i]!) return BUCKET_LABELS[i]!;
  }
  return '+Inf';
}

/**
 * The `q` quantile (0..1) of latencies counted per bucket (label → count), in seconds, as
 * Prometheus' histogram_quantile estimates it: linear within the bucket the rank falls in; in
 * the `+Inf` bucket, the highest finite bound. Null when nothing was counted.
 */
export function latencyQuantile(buckets: ReadonlyMap<string, number>, q: number): number | null {
  let total = 0;
  for (const count of buckets.values()) total += count;
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  let lower = 0;
  for (const le of RECEIPT_LATENCY_BUCKETS_S) {
    const count = buckets.get(String(le)) ?? 0;
    if (count > 0 && below + count >= rank) {
      return lower + ((le - lower) * (rank - below)) / count;
    }
    below += count;
    lower = le;
  }
  return RECEIPT_LATENCY_BUCKETS_S.at(-1)!;
}
