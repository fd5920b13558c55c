import type { FastifyInstance } from 'fastify';

/**
 * STAND-IN, until the console API's session routes exist: `GET /console/api/session` answers
 * the user named by the `nok_stand_in_role` cookie (member, owner or admin), or nobody, and
 * `POST /console/api/session` signs in with an email below and `STAND_IN_PASSWORD`. It
 * lets the browser tests of the console's frame (layout, navigation, roles, languages) run
 * against the real server and the real build. It is added to the test's app only while the
 * app has no session route of its own; once the real one lands, `signInAs` below signs in
 * through it and this file goes.
 */
export const STAND_IN_ROLE_COOKIE = 'nok_stand_in_role';

const USERS = {
  member: { id: 3, email: 'mali@example.co.th', name: 'มะลิ ใจดี', accountId: 1 },
  owner: { id: 2, email: 'somchai@example.co.th', name: 'Somchai Owner', accountId: 1 },
  admin: { id: 1, email: 'ops@nok.example', name: 'Platform Admin', accountId: null },
} as const;

export type StandInRole = keyof typeof USERS;

/** The one password the stand-in accepts, for any of its users. */
export const STAND_IN_PASSWORD = 'correct horse battery staple';
const CSRF_TOKEN = 'stand-in-csrf-token';

export function installSessionStandIn(app: FastifyInstance): boolean {
  if (app.hasRoute({ method: 'GET', url: '/console/api/session' })) return false;
  app.get('/console/api/session', { config: { access: 'public' } }, async (request) => {
    const cookie = request.headers.cookie ?? '';
    const role = new RegExp(`(?:^|;\\s*)${STAND_IN_ROLE_COOKIE}=(\\w+)`).exec(cookie)?.[1];
    const user =
      role && role in USERS
        ? { ...USERS[role as StandInRole], role, timeZone: 'Asia/Bangkok' }
        : null;
    return { user, csrfToken: CSRF_TOKEN };
  });
  app.post('/console/api/session', { config: { access: 'public' } }, async (request, reply) => {
    if (request.headers['x-csrf-token'] !== CSRF_TOKEN) {
      return reply.status(403).send({ error: 'CSRF token missing', code: 'FORBIDDEN' });
    }
    const body = request.body as { email?: string; password?: string };
    const found = Object.entries(USERS).find(([, user]) => user.email === body.email);
    if (!found || body.password !== STAND_IN_PASSWORD) {
      return reply.status(401).send({ error: 'Sign-in failed', code: 'UNAUTHORIZED' });
    }
    const [role, user] = found;
    reply.header('set-cookie', `${STAND_IN_ROLE_COOKIE}=${role}; Path=/console; HttpOnly`);
    return { user: { ...user, role, timeZone: 'Asia/Bangkok' }, csrfToken: CSRF_TOKEN };
  });
  return true;
}
