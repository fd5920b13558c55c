import { z } from 'zod';
import { LIMITS } from '../../../domain/limits.js';
import { endpoints } from './endpoint.js';
import {
  adjustCreditsBodySchema,
  balanceSchema,
  creditsSchema,
  ledgerQuerySchema,
} from './credits.js';
import { lowBalanceThresholdSchema } from './dashboard.js';

/**
 * Admin account management: list, create, detail, settings, suspend and reactivate.
 * Shared with the browser: imports nothing but zod and the limits of domain/limits.ts.
 */

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export const accountStatusSchema = z.enum(ACCOUNT_STATUSES);
export type AccountStatus = z.infer<typeof accountStatusSchema>;

export const accountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  balance: z.number().int(),
  pricePerPart: z.number().int(),
  /** Requests per window for each key; null: the platform's default. */
  rateLimitRequests: z.number().int().nullable(),
  status: accountStatusSchema,
  /** The console warns the account's people below this balance; 0: never. */
  lowBalanceThreshold: z.number().int(),
  createdAt: z.string(),
});
export type Account = z.infer<typeof accountSchema>;

export const ACCOUNT_PAGE_MAX = 100;

/** Paged by page number (an admin jumps around a list ordered by id). */
export const accountListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(ACCOUNT_PAGE_MAX).default(25),
});
export type AccountListQuery = z.input<typeof accountListQuerySchema>;

export const accountListSchema = z.object({
  data: z.array(accountSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AccountList = z.infer<typeof accountListSchema>;

export const accountSenderSchema = z.object({
  name: z.string(),
  status: z.string(),
  /** Owned by another account and shared with this one. */
  shared: z.boolean(),
});

export const accountDetailSchema = accountSchema.extend({
  senders: z.array(accountSenderSchema),
});
export type AccountDetail = z.infer<typeof accountDetailSchema>;

export const ACCOUNT_NAME_MAX = 100;

export const createAccountBodySchema = z.object({
  name: z.string().trim().min(1).max(ACCOUNT_NAME_MAX),
  /** Opening credits, written to the ledger as a top-up. */
  credits: z.number().int().min(0).max(LIMITS.creditAmount).default(0),
  pricePerPart: z.number().int().min(0).max(1_000_000).default(1),
});
export type CreateAccountBody = z.input<typeof createAccountBodySchema>;

export const accountSettingsBodySchema = z
  .object({
    pricePerPart: z.number().int().min(0).max(1_000_000).optional(),
    rateLimitRequests: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
    lowBalanceThreshold: lowBalanceThresholdSchema.optional(),
  })
  .refine(
    (body) =>
      body.pricePerPart !== undefined ||
      body.rateLimitRequests !== undefined ||
      body.lowBalanceThreshold !== undefined,
    { message: 'give pricePerPart, rateLimitRequests, lowBalanceThreshold or several' },
  );
export type AccountSettingsBody = z.infer<typeof accountSettingsBodySchema>;

export const accountStatusBodySchema = z.object({ status: accountStatusSchema });
export type AccountStatusBody = z.infer<typeof accountStatusBodySchema>;

export const accountParamsSchema = z.object({
  accountId: z.coerce.number().int().positive(),
});

export const accountEndpoints = endpoints({
  'GET /admin/accounts': { query: accountListQuerySchema, response: accountListSchema },
  'POST /admin/accounts': {
    body: createAccountBodySchema,
    status: 201,
    response: accountDetailSchema,
  },
  'GET /admin/accounts/:accountId': { params: accountParamsSchema, response: accountDetailSchema },
  'PATCH /admin/accounts/:accountId': {
    params: accountParamsSchema,
    body: accountSettingsBodySchema,
    response: accountSchema,
  },
  'POST /admin/accounts/:accountId/credits': {
    params: accountParamsSchema,
    body: adjustCreditsBodySchema,
    response: balanceSchema,
  },
  'PUT /admin/accounts/:accountId/status': {
    params: accountParamsSchema,
    body: accountStatusBodySchema,
    response: accountSchema,
  },
  'GET /admin/accounts/:accountId/ledger': {
    params: accountParamsSchema,
    query: ledgerQuerySchema,
    response: creditsSchema,
  },
});
