/**
 * At most `submitsPerSecond` submits per key (a system_id) in any 1,000 ms: each key keeps the
 * times of its last N accepted submits in a ring, and a submit is accepted when the oldest of
 * them is a second old. Exact for any window, O(1) per submit, 8 bytes × N per key.
 */
export class SubmitThrottle {
  private readonly rings = new Map<string, { times: Float64Array; next: number }>();

  constructor(
    private readonly submitsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True, and counted, when the submit is within the rate; false when it must be throttled. */
  tryAccept(key: string): boolean {
    let ring = this.rings.get(key);
    if (ring === undefined) {
      ring = { times: new Float64Array(this.submitsPerSecond).fill(-Infinity), next: 0 };
      this.rings.set(key, ring);
    }
    const now = this.now();
    if (now - ring.times[ring.next]! < 1000) return false;
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % ring.times.length;
    return true;
  }
}
