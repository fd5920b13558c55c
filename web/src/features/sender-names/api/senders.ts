import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

export const senderKeys = {
  senders: ['senders'] as const,
  requests: ['sender-requests'] as const,
  request: (id: number) => ['sender-requests', id] as const,
  queue: (status: 'pending' | 'all') => ['admin', 'sender-requests', status] as const,
  adminRequest: (id: number) => ['admin', 'sender-requests', 'one', id] as const,
  /** Every sender of the platform, as admins manage them. */
  all: ['admin', 'senders'] as const,
};

/** The account's own and shared senders, with what a document upload may be. */
export function useSenders() {
  return useQuery({
    queryKey: senderKeys.senders,
    queryFn: ({ signal }) => call('GET /senders', { signal }),
  });
}
