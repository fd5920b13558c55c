import type {
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
  RouteOptions,
} from 'fastify';
import type { RequiredScope } from '../domain/accounts/authenticate.js';

/**
 * What a route needs before its handler runs, declared in its options as `config: { access }`
 * and enforced by one hook (`plugins/access-control.ts`). A route without a declaration stops
 * the app at start-up, so no route can forget its check.
 *
 * - `'public'`: no credentials (health, the API documents).
 * - `{ scope }`: a valid `x-api-key` whose scopes grant `scope` (`requireScope` in the domain says which
 *   scopes grant which).
 * - `{ role }`: a console route (under /console/api): the session cookie, its expiry, CSRF on
 *   every state change, then the role (`ConsoleRole`), checked by `console/console-session.ts`.
 */
export type Access = 'public' | { readonly scope: RequiredScope } | ConsoleAccess;

/**
 * A console route's declaration. Someone who must sign in with TOTP and has not enrolled yet
 * holds a restricted session: every route refuses them (403 TOTP_ENROLMENT_REQUIRED) but guest
 * routes and the `user` routes declared `whileEnrolling` (the session, the profile and the
 * enrolment itself), so a new route is closed to them unless it says otherwise.
 */
export type ConsoleAccess =
  | { readonly role: Exclude<ConsoleRole, 'user'> }
  | { readonly role: 'user'; readonly whileEnrolling?: true };

/**
 * Who may call a console route:
 * - `guest`: anyone, signed in or not (sign-in, the session probe, accepting an invitation,
 *   resetting a password); a state change still needs the session's CSRF token.
 * - `user`: anyone signed in (profile, two-factor enrolment, sign-out).
 * - `member`: a member or owner of a customer account; acts on the session's own account.
 * - `owner`: the owner of a customer account.
 * - `admin`: a platform admin; acts on any account (routes under /console/api/admin/).
 */
export type ConsoleRole = 'guest' | 'user' | 'member' | 'owner' | 'admin';

export type { RequiredScope };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** A route as the access hook saw it registered: the security suite reads these. */
export interface DeclaredRoute {
  readonly method: string;
  /** Fastify's path, `:param` style. */
  readonly url: string;
  readonly access: Access | undefined;
}

/** Reads a route's declaration (after every onRoute hook has had its say). */
export function accessOf(route: Pick<RouteOptions, 'config'>): Access | undefined {
  return (route.config as { access?: Access } | undefined)?.access;
}

/**
 * Wraps a plugin whose routes we do not write (Swagger UI's pages and assets) so that each of
 * them is declared `access`, since we cannot put the declaration in their options ourselves.
 */
export function withAccess<Options extends FastifyPluginOptions>(
  access: Access,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
): FastifyPluginAsync<Options> {
  return async (scope, options) => {
    scope.addHook('onRoute', (route) => {
      if (accessOf(route) === undefined) route.config = { ...route.config, access };
    });
    await scope.register(plugin as FastifyPluginAsync, options);
  };
}
