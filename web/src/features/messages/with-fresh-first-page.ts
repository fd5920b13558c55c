import type { InfiniteData } from '@tanstack/react-query';

/** A page read by cursor: `nextCursor` is what the page after it was read after. */
interface CursorPage {
  readonly nextCursor: number;
  readonly hasMore: boolean;
}

/**
 * The loaded pages with `fresh` read again as their first. The later pages stay while they still
 * follow from it (its cursor is the one they were read after), as they do whatever the statuses
 * when no filter is set; otherwise they go, and "more" reads them again, so no recipient falls
 * between two pages.
 */
export function withFreshFirstPage<P extends CursorPage>(
  data: InfiniteData<P, number>,
  fresh: P,
): InfiniteData<P, number> {
  const first = data.pages[0];
  const follows =
    first !== undefined && first.hasMore && fresh.hasMore && first.nextCursor === fresh.nextCursor;
  return follows
    ? { pages: [fresh, ...data.pages.slice(1)], pageParams: data.pageParams }
    : { pages: [fresh], pageParams: data.pageParams.slice(0, 1) };
}
