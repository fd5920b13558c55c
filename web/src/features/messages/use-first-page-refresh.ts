import { useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { RecipientPage } from '@contract/messages';
import { withFreshFirstPage } from './with-fresh-first-page';

type Pages = InfiniteData<RecipientPage, number>;

/**
 * Reads the first page of the recipients shown again when `version` changes (the message's
 * counts moved: every 2 s while it is sent), rather than every page loaded, which react-query's
 * refetch of an infinite list would read one after another. The other filters' lists are only
 * marked stale: they are read again if shown. A refresh waits for a page being read to arrive,
 * which would otherwise overwrite it.
 */
export function useFirstPageRefresh(options: {
  readonly version: string;
  /** Every list of the message, whatever its filters. */
  readonly allKey: QueryKey;
  /** The list shown. */
  readonly key: QueryKey;
  readonly fetching: boolean;
  readonly fetchFirst: () => Promise<RecipientPage>;
}): void {
  const client = useQueryClient();
  const refreshed = useRef(options.version);
  const { version, allKey, key, fetching, fetchFirst } = options;
  useEffect(() => {
    if (refreshed.current === version || fetching) return;
    refreshed.current = version;
    void client.invalidateQueries({ queryKey: allKey, refetchType: 'none' });
    const loaded = client.getQueryData<Pages>(key)?.pages.length ?? 0;
    if (loaded <= 1) {
      void client.refetchQueries({ queryKey: key, exact: true });
      return;
    }
    fetchFirst().then(
      (fresh) => client.setQueryData<Pages>(key, (data) => data && withFreshFirstPage(data, fresh)),
      // A page that could not be read now is read at the next change, or by "more".
      () => undefined,
    );
  }, [client, version, fetching, allKey, key, fetchFirst]);
}
