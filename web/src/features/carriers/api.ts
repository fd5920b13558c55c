import { useQuery } from '@tanstack/react-query';
import { carriersStatusSchema } from '@contract/carriers';
import { api } from '../../lib/api-client';

/** How often the page asks again; the server answers from memory, so polling costs little. */
export const CARRIERS_REFRESH_MS = 2_000;

export function useCarriersStatus() {
  return useQuery({
    queryKey: ['admin', 'carriers'],
    queryFn: ({ signal }) => api.get('/admin/carriers', { schema: carriersStatusSchema, signal }),
    refetchInterval: CARRIERS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
