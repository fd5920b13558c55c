import type { FastifyPluginAsync } from 'fastify';
import { updateAccountSettings } from '../../../domain/accounts/update-account-settings.js';
import { readAccountDashboard } from '../../../domain/dashboard/read-account-dashboard.js';
import { readPlatformDashboard } from '../../../domain/dashboard/read-platform-dashboard.js';
import { zoneOrDefault } from '../../../domain/time-zones.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId, consoleUser } from '../console-session.js';

const member = { access: { role: 'member' } } as const;
const owner = { access: { role: 'owner' } } as const;
const admin = { access: { role: 'admin' } } as const;

/** The customer's dashboard, its low-balance threshold, and the admin's platform dashboard. */
export const dashboardRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock } = deps;

  consoleRoute(
    app,
    'GET /dashboard',
    {
      tags: ['dashboard'],
      summary:
        'Balance against the low-balance threshold, the last 30 days, and the latest messages',
      description:
        "Days are calendar days in the person's time zone. A day's delivery figures are those of the messages accepted that day, as their counters stand now.",
      config: member,
    },
    async (request) => {
      const timeZone = zoneOrDefault(consoleUser(request).timeZone);
      const dashboard = await readAccountDashboard(store, {
        accountId: consoleAccountId(request),
        timeZone,
        nowMs: clock.now(),
      });
      return {
        timeZone,
        balance: dashboard.balance,
        lowBalanceThreshold: dashboard.lowBalanceThreshold,
        lowBalance: dashboard.lowBalance,
        days: dashboard.days,
        latest: dashboard.latest.map((m) => ({
          uuid: m.uuid,
          refNo: m.refNo,
          sender: m.sender,
          content: m.content,
          status: m.status,
          recipientTotal: m.recipientTotal,
          createdAt: new Date(m.createdAt).toISOString(),
        })),
      };
    },
  );

  consoleRoute(
    app,
    'PUT /dashboard/low-balance-threshold',
    {
      tags: ['dashboard'],
      summary: 'Set the balance below which the console warns (0: never)',
      config: owner,
    },
    async (request) => {
      const { after } = await updateAccountSettings(store, {
        accountId: consoleAccountId(request),
        settings: { lowBalanceThreshold: request.body.lowBalanceThreshold },
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { lowBalanceThreshold: after.lowBalanceThreshold };
    },
  );

  consoleRoute(
    app,
    'GET /admin/dashboard',
    {
      tags: ['admin'],
      summary:
        'The platform over the last 30 days: recipients per carrier, submit errors, receipt latency',
      description:
        'From the figures every dispatcher adds up per hour (docs/adr/0030): days are those of the admin’s time zone, to the hour.',
      config: admin,
    },
    async (request) => {
      const timeZone = zoneOrDefault(consoleUser(request).timeZone);
      return {
        timeZone,
        ...(await readPlatformDashboard(store, { timeZone, nowMs: clock.now() })),
      };
    },
  );
};
