import type { ComponentType } from 'react';
import type { AreaKey } from '../lib/i18n';
import type { Role } from '@contract/session';

/**
 * The console's main areas: where each lives, who may open it, and its page. The route tree
 * and the navigation are both made from this one table, so a page is never reachable (or
 * shown in the menu) without its roles. The server checks the same roles on every API call.
 */
export interface ConsoleArea {
  readonly key: AreaKey;
  /** Under /console, without a leading slash. */
  readonly path: string;
  readonly roles: readonly Role[];
  readonly group: 'account' | 'admin';
  readonly page: () => Promise<ComponentType>;
  /** Further pages of the area under its path (`sender-names/new`), behind the same roles. */
  readonly subpages?: readonly {
    readonly path: string;
    readonly page: () => Promise<ComponentType>;
  }[];
}

const customer: readonly Role[] = ['member', 'owner'];
const owner: readonly Role[] = ['owner'];
const admin: readonly Role[] = ['admin'];
const anyone: readonly Role[] = ['member', 'owner', 'admin'];

export const areas: readonly ConsoleArea[] = [
  {
    key: 'dashboard',
    path: 'dashboard',
    roles: customer,
    group: 'account',
    page: () => import('./routes/dashboard').then((m) => m.DashboardRoute),
  },
  {
    key: 'apiKeys',
    path: 'api-keys',
    roles: owner,
    group: 'account',
    page: () => import('./routes/api-keys').then((m) => m.ApiKeysRoute),
  },
  {
    key: 'senderNames',
    path: 'sender-names',
    roles: customer,
    group: 'account',
    page: () => import('./routes/sender-names').then((m) => m.SenderNamesRoute),
    subpages: [
      {
        path: 'new',
        page: () =>
          import('./routes/sender-name-request-new').then((m) => m.SenderNameRequestNewRoute),
      },
      {
        path: 'requests/:requestId',
        page: () => import('./routes/sender-name-request').then((m) => m.SenderNameRequestRoute),
      },
    ],
  },
  {
    key: 'credits',
    path: 'credits',
    roles: owner,
    group: 'account',
    page: () => import('./routes/credits').then((m) => m.CreditsRoute),
  },
  {
    key: 'users',
    path: 'users',
    roles: owner,
    group: 'account',
    page: () => import('./routes/users').then((m) => m.UsersRoute),
  },
  {
    key: 'auditLog',
    path: 'audit-log',
    roles: ['owner', 'admin'],
    group: 'account',
    page: () => import('./routes/audit-log').then((m) => m.AuditLogRoute),
  },
  {
    key: 'profile',
    path: 'profile',
    roles: anyone,
    group: 'account',
    page: () => import('./routes/profile').then((m) => m.ProfileRoute),
  },
  {
    key: 'adminAccounts',
    path: 'admin/accounts',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/accounts').then((m) => m.AdminAccountsRoute),
    subpages: [
      {
        path: ':accountId',
        page: () => import('./routes/admin/accounts').then((m) => m.AdminAccountRoute),
      },
    ],
  },
  {
    key: 'adminSenderReview',
    path: 'admin/sender-review',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/sender-review').then((m) => m.AdminSenderReviewRoute),
    subpages: [
      {
        path: ':requestId',
        page: () =>
          import('./routes/admin/sender-review-request').then(
            (m) => m.AdminSenderReviewRequestRoute,
          ),
      },
    ],
  },
  {
    key: 'adminCarriers',
    path: 'admin/carriers',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/carriers').then((m) => m.AdminCarriersRoute),
  },
];

/** Where a user lands at /console: the first area their role opens, in their own group. */
export function homePath(role: Role): string {
  const group = role === 'admin' ? 'admin' : 'account';
  const first = areas.find((area) => area.group === group && area.roles.includes(role));
  return `/${first?.path ?? 'profile'}`;
}
