import { focusManager, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

const SECOND = 1_000;

/**
 * How often an open page asks again about what other people change while it is shown (ADR 0043),
 * by the start of the query key. Every query is also asked again when the console comes back into
 * use (below); these are the lists someone may be watching for another person's change. A page
 * sets its own pace where it follows something live: one message (every 2 s while it is sent),
 * the carriers (every 2 s).
 */
export const REFRESH_INTERVALS: readonly (readonly [QueryKey, number])[] = [
  // A sender name an admin approves, suspends or shares; a request an admin decides.
  [['senders'], 15 * SECOND],
  [['sender-requests'], 15 * SECOND],
  // Requests owners submit or resubmit, and other admins' decisions.
  [['admin', 'sender-requests'], 15 * SECOND],
  [['admin', 'senders'], 30 * SECOND],
  // Messages sent through the API or by other people, and their statuses as they are sent.
  [['messages'], 10 * SECOND],
  // The balance: sends, top-ups and adjustments by an admin.
  [['dashboard'], 30 * SECOND],
  [['ledger'], 30 * SECOND],
  [['admin', 'account'], 30 * SECOND],
  [['admin', 'accounts'], 60 * SECOND],
  [['admin', 'dashboard'], 60 * SECOND],
  // Invitations accepted, people removed by another owner or an admin.
  [['people'], 30 * SECOND],
  [['admin', 'people'], 30 * SECOND],
];

/**
 * The console's query client. A refusal (4xx) is not retried, a lost connection is; every query
 * is read again when the console comes back into use, and the lists above on their interval
 * while the page is visible (never in a hidden tab).
 */
export function createQueryClient(): QueryClient {
  refetchOnWindowFocusToo();
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: true,
        refetchIntervalInBackground: false,
      },
    },
  });
  for (const [queryKey, refetchInterval] of REFRESH_INTERVALS) {
    client.setQueryDefaults(queryKey, { refetchInterval });
  }
  return client;
}

/**
 * TanStack Query hears only `visibilitychange`: a tab shown again. A person who comes back to the
 * console's window from another window (the mail that said a name was approved) leaves a tab
 * that was visible all along, so a window's `focus` counts too. Neither decides whether the page
 * counts as focused, which stays "the tab is visible": a visible console behind another window
 * keeps its intervals.
 */
function refetchOnWindowFocusToo(): void {
  focusManager.setEventListener((focused) => {
    const listener = () => focused();
    window.addEventListener('visibilitychange', listener, false);
    window.addEventListener('focus', listener, false);
    return () => {
      window.removeEventListener('visibilitychange', listener);
      window.removeEventListener('focus', listener);
    };
  });
}
