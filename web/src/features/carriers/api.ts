import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api-client';

/**
 * How often the page asks again: as often as dispatchers publish their status. Each answer is
 * two small reads (the status board, a few rows, and the queue depth through its index).
 */
export const CARRIERS_REFRESH_MS = 2_000;

export function useCarriersStatus() {
  return useQuery({
    queryKey: ['admin', 'carriers'],
    queryFn: ({ signal }) => call('GET /admin/carriers', { signal }),
    refetchInterval: CARRIERS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
