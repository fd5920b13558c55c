import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LowBalanceThresholdBody } from '@contract/dashboard';
import { call } from '../../lib/api-client';

export function useAccountDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => call('GET /dashboard', { signal }),
  });
}

export function useSetLowBalanceThreshold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LowBalanceThresholdBody) =>
      call('PUT /dashboard/low-balance-threshold', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  });
}

export function usePlatformDashboard() {
  return useQuery({
    queryKey: ['admin', 'dashboard'],
    queryFn: ({ signal }) => call('GET /admin/dashboard', { signal }),
  });
}
