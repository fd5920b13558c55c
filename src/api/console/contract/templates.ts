import { z } from 'zod';
import { LIMITS } from '../../../domain/limits.js';
import { endpoints } from './endpoint.js';

/**
 * The console's message templates (members and owners). Shared with the browser: zod and the
 * limits of src/domain/limits.ts only.
 */

export const TEMPLATE_NAME_MAX = 100;
/** A body is at most as long as the content of one send (spec §2.5), in characters. */
export const TEMPLATE_BODY_MAX = LIMITS.sendContentChars;

export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  body: z.string(),
  /** Its `{{placeholders}}`, each once, in order of first appearance. */
  variables: z.array(z.string()),
});
export type TemplateView = z.infer<typeof templateSchema>;

export const templateListSchema = z.object({ data: z.array(templateSchema) });
export type TemplateList = z.infer<typeof templateListSchema>;

export const templateBodySchema = z.object({
  name: z.string().trim().min(1).max(TEMPLATE_NAME_MAX),
  body: z.string().min(1).max(TEMPLATE_BODY_MAX),
});
export type TemplateBody = z.infer<typeof templateBodySchema>;

export const templateParamsSchema = z.object({
  templateId: z.coerce.number().int().positive(),
});

export const templatePreviewBodySchema = z.object({
  body: z.string().max(TEMPLATE_BODY_MAX),
  variables: z.record(z.string().max(200), z.string().max(TEMPLATE_BODY_MAX)).default({}),
});
export type TemplatePreviewBody = z.infer<typeof templatePreviewBodySchema>;

export const templatePreviewSchema = z.object({
  text: z.string(),
  variables: z.array(z.string()),
  missing: z.array(z.string()),
  characters: z.number().int(),
  parts: z.number().int(),
});
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;

export const templateEndpoints = endpoints({
  'GET /templates': { response: templateListSchema },
  'POST /templates': { body: templateBodySchema, status: 201, response: templateSchema },
  'POST /templates/preview': { body: templatePreviewBodySchema, response: templatePreviewSchema },
  'GET /templates/:templateId': { params: templateParamsSchema, response: templateSchema },
  'PUT /templates/:templateId': {
    params: templateParamsSchema,
    body: templateBodySchema,
    response: templateSchema,
  },
  'DELETE /templates/:templateId': { params: templateParamsSchema, response: templateParamsSchema },
});
