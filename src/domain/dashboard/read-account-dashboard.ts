import type { AccountStore } from '../accounts/account-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { listMessages } from '../messages/list-messages.js';
import type { Message, MessageStore } from '../messages/message-store.js';
import {
  DELIVERY_RATIO_STATUSES,
  type DeliveryRatioStatus,
  type DashboardStore,
} from './dashboard-store.js';
import { lastDaysIn } from './zoned-days.js';

/** Days the dashboard shows, ending today. */
export const DASHBOARD_DAYS = 30;
/** Latest messages the dashboard lists. */
export const DASHBOARD_LATEST = 5;

export interface AccountDay extends Record<DeliveryRatioStatus, number> {
  /** `YYYY-MM-DD` in the zone asked for. */
  readonly day: string;
  readonly sends: number;
  readonly recipients: number;
}

export interface AccountDashboard {
  readonly balance: number;
  readonly lowBalanceThreshold: number;
  /** The balance is below a threshold that is set (above 0). */
  readonly lowBalance: boolean;
  readonly days: AccountDay[];
  readonly latest: Message[];
}

/**
 * An account's dashboard in `timeZone`: balance against its threshold, each of the last
 * `DASHBOARD_DAYS` days' sends and recipients and the final statuses of those recipients (by
 * the day their message was accepted, from the messages' counters), and its latest messages of
 * those days (the message list of /api/v2).
 */
export async function readAccountDashboard(
  store: AccountStore & MessageStore & DashboardStore,
  input: { accountId: number; timeZone: string; nowMs: number },
): Promise<AccountDashboard> {
  const days = lastDaysIn(input.timeZone, input.nowMs, DASHBOARD_DAYS);
  const boundaries = [...days.map((d) => d.startMs), days.at(-1)!.endMs];
  const [account, sends, delivery, latest] = await Promise.all([
    requireAccount(store, input.accountId),
    store.accountSendDays(input.accountId, boundaries),
    store.accountDeliveryDays(input.accountId, boundaries),
    // Within the window: the list's total is then counted over the window's index range only.
    listMessages(store, input.accountId, {
      offset: 0,
      limit: DASHBOARD_LATEST,
      fromMs: boundaries[0],
    }),
  ]);
  const rows = days.map((d) => ({
    day: d.day,
    sends: 0,
    recipients: 0,
    ...Object.fromEntries(DELIVERY_RATIO_STATUSES.map((s) => [s, 0])),
  })) as { -readonly [K in keyof AccountDay]: AccountDay[K] }[];
  for (const s of sends) {
    const row = rows[s.bucket];
    if (!row) continue;
    row.sends += s.sends;
    row.recipients += s.recipients;
  }
  for (const d of delivery) {
    const row = rows[d.bucket];
    if (row) row[d.status] += d.count;
  }
  const threshold = account.lowBalanceThreshold;
  return {
    balance: account.balance,
    lowBalanceThreshold: threshold,
    lowBalance: threshold > 0 && account.balance < threshold,
    days: rows,
    latest: latest.items,
  };
}
