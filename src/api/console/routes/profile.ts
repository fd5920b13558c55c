import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { DomainError } from '../../../domain/errors.js';
import { changePassword } from '../../../domain/users/change-password.js';
import {
  confirmTotpEnrolment,
  disableTotp,
  regenerateRecoveryCodes,
  setAccountTotpRequirement,
  startTotpEnrolment,
} from '../../../domain/users/totp-enrolment.js';
import { totpRequirement } from '../../../domain/users/two-factor.js';
import { updateProfile } from '../../../domain/users/update-profile.js';
import type { User } from '../../../domain/users/user.js';
import { type Profile } from '../contract/profile.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import {
  consoleAccountId,
  consoleSessionId,
  consoleUser,
  setSessionCookie,
  toConsoleUser,
} from '../console-session.js';

/** Every signed-in person, also while their session is restricted until TOTP enrolment. */
const ownProfile = { access: { role: 'user', whileEnrolling: true } } as const;
const owner = { access: { role: 'owner' } } as const;
const tags = ['profile'];

/** The signed-in person's own profile, password and two-factor sign-in; the owner's switch. */
export const profileRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { store, clock, signInLimits } = deps;

  async function present(user: User): Promise<Profile> {
    const account = user.accountId === null ? null : await store.findAccount(user.accountId);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      accountId: user.accountId,
      timeZone: user.timeZone,
      totp: {
        enabled: user.totpEnabledAt !== null,
        required: totpRequirement(user, account),
        pending: user.totpEnabledAt === null && user.totpSecret !== null,
        recoveryCodesLeft: user.totpEnabledAt === null ? 0 : user.recoveryCodeHashes.length,
      },
      accountRequiresTotp: user.role === 'owner' ? (account?.requireTotp ?? false) : null,
    };
  }

  async function current(request: FastifyRequest): Promise<User> {
    const user = await store.findUser(consoleUser(request).id);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Sign in first');
    return user;
  }

  /** The new session (after a password change or enrolment) into the cookie, as answered. */
  async function rotated(
    request: FastifyRequest,
    reply: FastifyReply,
    started: { id: string; session: { csrfToken: string } },
    user: User,
  ) {
    setSessionCookie(request, reply, started.id);
    const account = user.accountId === null ? null : await store.findAccount(user.accountId);
    return { user: toConsoleUser(user, account), csrfToken: started.session.csrfToken };
  }

  const actor = (request: FastifyRequest) => ({
    userId: consoleUser(request).id,
    ip: request.ip,
    nowMs: clock.now(),
  });

  consoleRoute(
    app,
    'GET /profile',
    {
      tags,
      summary: 'The signed-in person’s profile and two-factor state',
      config: ownProfile,
    },
    async (request) => present(await current(request)),
  );

  consoleRoute(
    app,
    'PATCH /profile',
    {
      tags,
      summary: 'Change one’s name or time zone',
      config: ownProfile,
    },
    async (request) => present(await updateProfile(store, { ...actor(request), ...request.body })),
  );

  consoleRoute(
    app,
    'POST /profile/password',
    {
      tags,
      summary: 'Change one’s password',
      description:
        'Needs the current password (a wrong one counts as a failed sign-in). Ends every other session of the person; this one gets a new id and CSRF token.',
      config: ownProfile,
    },
    async (request, reply) => {
      const started = await changePassword(
        store,
        {
          ...actor(request),
          ...request.body,
          sessionIdHash: consoleSessionId(request),
          ip: request.ip,
        },
        signInLimits,
      );
      return rotated(request, reply, started, await current(request));
    },
  );

  consoleRoute(
    app,
    'POST /profile/totp',
    {
      tags,
      summary: 'Start two-factor enrolment',
      description:
        'A new TOTP secret as an otpauth URI, its QR code and the secret for typing by hand. Not in force until confirmed with a code; a second start replaces it.',
      config: ownProfile,
    },
    async (request) => {
      const { secret, uri } = await startTotpEnrolment(store, actor(request));
      const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return {
        uri,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        secret,
      };
    },
  );

  consoleRoute(
    app,
    'POST /profile/totp/confirm',
    {
      tags,
      summary: 'Confirm two-factor enrolment with a current code',
      description:
        'TOTP is in force from now. Answers ten recovery codes, this once, and a new session (id and CSRF token).',
      config: ownProfile,
    },
    async (request, reply) => {
      const confirmed = await confirmTotpEnrolment(
        store,
        { ...actor(request), code: request.body.code, sessionIdHash: consoleSessionId(request) },
        signInLimits,
      );
      return {
        recoveryCodes: confirmed.recoveryCodes,
        session: await rotated(request, reply, confirmed, confirmed.user),
      };
    },
  );

  consoleRoute(
    app,
    'POST /profile/totp/recovery-codes',
    {
      tags,
      summary: 'New recovery codes for a current code',
      description: 'The old codes stop working; the new ones are answered this once.',
      config: ownProfile,
    },
    async (request) => ({
      recoveryCodes: await regenerateRecoveryCodes(
        store,
        { ...actor(request), code: request.body.code },
        signInLimits,
      ),
    }),
  );

  consoleRoute(
    app,
    'POST /profile/totp/disable',
    {
      tags,
      summary: 'Turn two-factor sign-in off for a current code',
      description: 'Refused (409) for platform admins and in an account that requires it.',
      config: ownProfile,
    },
    async (request) =>
      present(
        await disableTotp(store, { ...actor(request), code: request.body.code }, signInLimits),
      ),
  );

  consoleRoute(
    app,
    'PUT /account/two-factor',
    {
      tags,
      summary: 'Require two-factor sign-in of everyone in the account',
      description:
        'Owners only. People without TOTP keep signing in, to a session restricted to enrolling until they do.',
      config: owner,
    },
    async (request) => ({
      required: await setAccountTotpRequirement(store, {
        ...actor(request),
        accountId: consoleAccountId(request),
        required: request.body.required,
      }),
    }),
  );
};
