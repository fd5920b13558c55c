import type { FastifyInstance } from 'fastify';

/**
 * The one place that says what a path parameter may be. A route's `:uuid` matches only a uuid,
 * a `:…Id` only digits and a `:…Uid` only a public id with its kind's prefix (a webhook
 * endpoint's `ep_…`), so a word beside them (`/sms/send`, `/sms/preview-cost`) is never
 * taken for an id: its path answers for the methods that really serve it (405 with the exact
 * `Allow`), and a malformed id is a path no route serves (404), never a lookup.
 */

export const PATH_ID_FORMATS = {
  /** The shape randomUUID gives (domain/messages/find-own-message.ts reads no other). */
  uuid: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  /** A row id: digits, which the route's own schema then bounds (positive, safe integer). */
  rowId: '^[0-9]{1,20}$',
  /** A public id with its kind's prefix: a webhook endpoint's `ep_` and base64url. */
  prefixedId: '^[a-z]{1,8}_[A-Za-z0-9_-]{1,64}$',
} as const;

/** The format of a path parameter by its name; a name none covers is refused at start-up. */
export function pathIdFormat(name: string): string | null {
  if (name === 'uuid') return PATH_ID_FORMATS.uuid;
  if (/^[a-z][A-Za-z]*Id$/.test(name)) return PATH_ID_FORMATS.rowId;
  if (/^[a-z][A-Za-z]*Uid$/.test(name)) return PATH_ID_FORMATS.prefixedId;
  return null;
}

// `:name` not already followed by its own `(regex)`; `::` is a literal colon in fastify's paths.
const PARAMETER = /(?<!:):([A-Za-z_][A-Za-z0-9_]*)(?!\(|[A-Za-z0-9_])/g;

/** `url` with every `:name` constrained to its format. */
export function constrainPathIds(url: string): string {
  return url.replace(PARAMETER, (_whole, name: string) => {
    const format = pathIdFormat(name);
    if (format === null) {
      throw new Error(
        `${url}: the path parameter :${name} has no format; name it uuid, …Id or …Uid, or add its format to src/api/path-ids.ts`,
      );
    }
    return `:${name}(${format})`;
  });
}

/** A route's url as its route wrote it, without the formats `constrainPathIds` added. */
export function writtenPath(url: string): string {
  let written = url;
  for (const format of Object.values(PATH_ID_FORMATS))
    written = written.replaceAll(`(${format})`, '');
  return written;
}

/** Constrains the path parameters of every route registered after it, on every prefix. */
export function installPathIdFormats(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.url = constrainPathIds(route.url);
    route.path = route.url;
  });
}
