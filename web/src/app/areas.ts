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
  /**
   * Further pages of the area under its path (`sender-names/new`), behind the same roles, or
   * behind fewer (`roles`, a subset of the area's) when only some of its people may act there.
   */
  readonly subpages?: readonly {
    readonly path: string;
    readonly page: () => Promise<ComponentType>;
    readonly roles?: readonly Role[];
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
    key: 'send',
    path: 'messages/new',
    roles: customer,
    group: 'account',
    page: () => import('./routes/send').then((m) => m.SendRoute),
  },
  {
    key: 'messages',
    path: 'messages',
    roles: customer,
    group: 'account',
    page: () => import('./routes/messages').then((m) => m.MessagesRoute),
    subpages: [
      { path: ':uuid', page: () => import('./routes/messages').then((m) => m.MessageRoute) },
    ],
  },
  {
    key: 'contactGroups',
    path: 'contact-groups',
    roles: customer,
    group: 'account',
    page: () => import('./routes/contact-groups').then((m) => m.ContactGroupsRoute),
    subpages: [
      {
        path: ':groupId',
        page: () => import('./routes/contact-groups').then((m) => m.ContactGroupRoute),
      },
    ],
  },
  {
    key: 'templates',
    path: 'templates',
    roles: customer,
    group: 'account',
    page: () => import('./routes/templates').then((m) => m.TemplatesRoute),
  },
  {
    key: 'blocklist',
    path: 'blocklist',
    roles: customer,
    group: 'account',
    page: () => import('./routes/blocklist').then((m) => m.BlocklistRoute),
  },
  {
    key: 'apiKeys',
    path: 'api-keys',
    roles: owner,
    group: 'account',
    page: () => import('./routes/api-keys').then((m) => m.ApiKeysRoute),
  },
  {
    key: 'webhooks',
    path: 'webhooks',
    roles: owner,
    group: 'account',
    page: () => import('./routes/webhooks').then((m) => m.WebhooksRoute),
    subpages: [
      {
        path: ':endpointUid',
        page: () => import('./routes/webhooks').then((m) => m.WebhookDeliveriesRoute),
      },
    ],
  },
  {
    key: 'senderNames',
    path: 'sender-names',
    roles: customer,
    group: 'account',
    page: () => import('./routes/sender-names').then((m) => m.SenderNamesRoute),
    subpages: [
      {
        // Only an owner requests a name (the server refuses anyone else).
        path: 'new',
        roles: owner,
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
    key: 'adminDashboard',
    path: 'admin/dashboard',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/dashboard').then((m) => m.AdminDashboardRoute),
  },
  {
    key: 'adminMessages',
    path: 'admin/messages',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/messages').then((m) => m.AdminMessagesRoute),
    subpages: [
      {
        path: ':uuid',
        page: () => import('./routes/admin/messages').then((m) => m.AdminMessageRoute),
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
    key: 'adminSenders',
    path: 'admin/senders',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/admin/senders').then((m) => m.AdminSendersRoute),
  },
  {
    key: 'adminBlocklist',
    path: 'admin/blocklist',
    roles: admin,
    group: 'admin',
    page: () => import('./routes/blocklist').then((m) => m.AdminBlocklistRoute),
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
