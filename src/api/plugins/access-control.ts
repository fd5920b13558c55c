import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessOf, type ConsoleAccess, type DeclaredRoute, type RequiredScope } from '../access.js';
import { writtenPath } from '../path-ids.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app, with its declared access. */
    declaredRoutes(): readonly DeclaredRoute[];
  }
}

/** How each kind of declared access is checked; a guard throws a DomainError to refuse. */
export interface Guards {
  apiKey(request: FastifyRequest, reply: FastifyReply, scope: RequiredScope): Promise<void>;
  console(request: FastifyRequest, reply: FastifyReply, access: ConsoleAccess): Promise<void>;
}

/**
 * The one place access is enforced. Install it on the root app before any route: it records
 * every route, refuses to start (`ready()` rejects) when one declares no access, and checks each
 * request against its route's declaration before anything else runs (body parsing included).
 */
export function installAccessControl(app: FastifyInstance, guards: Guards): void {
  const routes: { method: string | string[]; url: string; config?: unknown }[] = [];
  const declared = (): DeclaredRoute[] =>
    routes.flatMap((route) =>
      [route.method].flat().map((method) => ({
        method,
        url: writtenPath(route.url),
        access: accessOf(route as { config?: never }),
      })),
    );

  app.decorate('declaredRoutes', declared);
  // Kept by reference: a scope's own onRoute hook (see `withAccess`) may still add the
  // declaration after this one has run, so it is read only once every route is in.
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', async () => {
    const undeclared = declared().filter((route) => route.access === undefined);
    if (undeclared.length > 0) {
      const names = undeclared.map((route) => `${route.method} ${route.url}`).join(', ');
      throw new Error(
        `Routes without an access declaration (config.access in their options): ${names}`,
      );
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    // No route matched: the not-found handler answers, and there is nothing to protect.
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (access === undefined) throw new Error(`Route ${request.routeOptions.url} has no access`);
    if ('role' in access) await guards.console(request, reply, access);
    else await guards.apiKey(request, reply, access.scope);
  });
}
