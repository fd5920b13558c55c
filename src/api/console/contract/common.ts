import { z } from 'zod';
import { errorBodySchema } from '../../contract/fields.js';

/*
 * Schemas shared by the console API's areas. Every file of this folder imports nothing but zod,
 * its neighbours, /api/v2's contract (src/api/contract/) and pure modules of the domain: the
 * browser imports them too (`@contract/*`), so server and browser never hold two copies of a
 * type.
 */

/** Every console error: `{ error, code, requestId }`, as on /api/v2. */
export { errorBodySchema };
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The error answers every console route may give, for its `response` schema. */
export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
} as const;

/** Paging of a list: `offset` from 0, `limit` 1–100 (default 50). */
export const pageQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** A timestamp on the wire: ISO 8601 in UTC (the browser shows it in the user's zone). */
export const timestampSchema = z.iso.datetime();

/**
 * The OpenAPI key that marks a request field naming a resource of the caller's account, by
 * kind: another account's answers 403 and changes nothing. The console security suite sends
 * another account's resource to every field so marked, and refuses an id-like field of a
 * customer route that is not.
 */
export const ACCOUNT_RESOURCE_KEY = 'x-account-resource';
export type AccountResourceKind = 'contact-group' | 'template' | 'recipient-list' | 'sender';

/** `schema`, marked as naming a resource of the caller's account (ACCOUNT_RESOURCE_KEY). */
export function accountResource<T extends z.ZodType>(kind: AccountResourceKind, schema: T): T {
  return schema.meta({ [ACCOUNT_RESOURCE_KEY]: kind });
}
