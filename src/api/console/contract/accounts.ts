import { z } from 'zod';

/**
 * Admin account management: list, create, detail, settings, suspend and reactivate.
 * Shared with the browser: imports nothing but zod.
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
  credits: z.number().int().min(0).max(1_000_000_000_000).default(0),
  pricePerPart: z.number().int().min(0).max(1_000_000).default(1),
});
export type CreateAccountBody = z.input<typeof createAccountBodySchema>;

export const accountSettingsBodySchema = z
  .object({
    pricePerPart: z.number().int().min(0).max(1_000_000).optional(),
    rateLimitRequests: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  })
  .refine((body) => body.pricePerPart !== undefined || body.rateLimitRequests !== undefined, {
    message: 'give pricePerPart, rateLimitRequests or both',
  });
export type AccountSettingsBody = z.infer<typeof accountSettingsBodySchema>;

export const accountStatusBodySchema = z.object({ status: accountStatusSchema });
export type AccountStatusBody = z.infer<typeof accountStatusBodySchema>;

export const accountParamsSchema = z.object({
  accountId: z.coerce.number().int().positive(),
});
