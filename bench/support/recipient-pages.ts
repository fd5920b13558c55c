// Latency of GET /api/v2/sms/{uuid}/recipients for the page shapes the issue names, sequential
// requests over one keep-alive connection.
import type { HttpClient } from './http-client.js';
import { quantile } from './http-client.js';

export interface PageKind {
  /** Stable across runs and engines: the summary table's row name. */
  readonly label: string;
  readonly group: 'page' | 'search';
  readonly query: string;
  /** Another path than the message's recipients (the floor below). */
  readonly path?: string;
  readonly targetMs?: number;
}

export interface PageLatency {
  readonly kind: PageKind;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Rows on the first answer, to show the query found something. */
  readonly rows: number;
}

const PAGE_TARGET_MS = 5;
const SEARCH_TARGET_MS = 50;

/**
 * `search6`/`search5` are substrings of numbers in the message; `blocked` pages the ~100
 * blocklisted recipients (a rare status) through the status filter.
 */
export function pageKinds(total: number, search6: string, search5: string): PageKind[] {
  const middle = Math.floor(total / 2);
  return [
    // What any request costs on this machine (HTTP both ways, no key, no database): the floor
    // under every other figure.
    { label: 'floor: GET /health', group: 'page', query: '', path: '/health' },
    { label: 'first page', group: 'page', query: 'after=0', targetMs: PAGE_TARGET_MS },
    { label: 'first page + total', group: 'page', query: '', targetMs: PAGE_TARGET_MS },
    { label: 'middle page', group: 'page', query: `after=${middle}`, targetMs: PAGE_TARGET_MS },
    { label: 'last page', group: 'page', query: `after=${total - 50}`, targetMs: PAGE_TARGET_MS },
    {
      label: 'status=blocked (rare)',
      group: 'page',
      query: 'status=blocked&after=0',
      targetMs: PAGE_TARGET_MS,
    },
    {
      label: 'search, 6 digits',
      group: 'search',
      query: `search=${search6}&after=0`,
      targetMs: SEARCH_TARGET_MS,
    },
    {
      label: 'search, 5 digits',
      group: 'search',
      query: `search=${search5}&after=0`,
      targetMs: SEARCH_TARGET_MS,
    },
  ];
}

/**
 * Latency of several page kinds, sampled in turn (one request of each kind per round) so that
 * every kind sees the same server conditions — e.g. the same stretch of a materialisation. Stops
 * once each kind has `requests` samples, or when `stop()` says so (checked between requests),
 * or once `budgetMs` is spent and every kind has at least 20 samples.
 */
export async function measurePages(
  client: HttpClient,
  uuid: string,
  kinds: readonly PageKind[],
  options: { requests: number; budgetMs: number; stop?: () => boolean },
): Promise<PageLatency[]> {
  const samples = kinds.map(() => [] as number[]);
  const rows = kinds.map(() => -1);
  const deadline = Date.now() + options.budgetMs;
  const stopped = () => options.stop?.() === true;
  const enough = () =>
    samples.every((s) => s.length >= options.requests) ||
    (Date.now() > deadline && samples.every((s) => s.length >= 20));
  while (!enough() && !stopped()) {
    for (const [i, kind] of kinds.entries()) {
      if (samples[i]!.length >= options.requests || stopped()) continue;
      const path =
        kind.path ?? `/api/v2/sms/${uuid}/recipients?limit=50${kind.query ? `&${kind.query}` : ''}`;
      const answer = await client.get(path);
      if (answer.status !== 200)
        throw new Error(`GET ${path} → ${answer.status} ${answer.body.toString()}`);
      if (rows[i]! < 0)
        rows[i] = (JSON.parse(answer.body.toString()) as { data?: unknown[] }).data?.length ?? 0;
      samples[i]!.push(answer.seconds * 1000);
    }
  }
  return kinds.flatMap((kind, i) => {
    const taken = samples[i]!;
    if (taken.length === 0) return [];
    return [
      {
        kind,
        samples: taken.length,
        p50Ms: quantile(taken, 0.5),
        p99Ms: quantile(taken, 0.99),
        maxMs: Math.max(...taken),
        rows: rows[i]!,
      },
    ];
  });
}

/** A `digits`-long substring of the 66-form of `suffix`, from inside its 9 national digits. */
export function substringOf(suffix: number, digits: number): string {
  return String(suffix)
    .padStart(9, '0')
    .slice(9 - digits - 1, 9 - 1);
}
