import { z } from 'zod';
import { endpoints } from './endpoint.js';
// Pure modules of the domain: the browser counts parts, finds placeholders and fills a template
// with the very code that charges and sends them.
import {
  countParts,
  MULTI_PART_UNITS,
  SINGLE_PART_UNITS,
} from '../../../domain/messages/message-parts.js';
import { renderTemplate } from '../../../domain/messages/render-template.js';
import { previewTemplate } from '../../../domain/templates/preview-template.js';
import { templateVariables } from '../../../domain/templates/template-variables.js';
import { LIMITS, countCharacters } from '../../../domain/limits.js';
import { accountResource } from './common.js';
import { messageRules, senderNameSchema } from '../../contract/fields.js';
import {
  costEstimateSchema,
  previewShape,
  recipientTallySchema,
  sendAcceptedSchema,
  sendShape,
  type RecipientTally,
} from '../../contract/sms.js';

export {
  countCharacters,
  countParts,
  MULTI_PART_UNITS,
  previewTemplate,
  renderTemplate,
  SINGLE_PART_UNITS,
  templateVariables,
};

/*
 * Compose and send, in the console API (/console/api), for an owner or member:
 *
 *   POST /recipient-lists          the body IS the file (text/plain: a number a line; text/csv),
 *                                  streamed; answers recipientListSchema. Kept for an hour
 *                                  or until sent (ADR 0034).
 *   POST /messages/preview-cost    previewBodySchema: parts, recipients and cost; nothing stored
 *   POST /messages                 sendBodySchema: with dryRun an estimate, else the send
 *
 * The pickers read GET /templates (contract/templates.ts) and GET /contact-groups
 * (contract/contact-groups.ts).
 */

/** Numbers typed or pasted into the page; a longer list is uploaded as a file. */
export const MAX_PASTED_NUMBERS = 10_000;
/** Numbers of one upload, as of one send on /api/v2. */
export const MAX_UPLOADED_NUMBERS = LIMITS.numbersPerRequest;
export const MAX_SEND_CONTENT_CHARS = LIMITS.sendContentChars;

export const recipientListSchema = z.object({
  id: z.uuid(),
  requested: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  duplicates: z.number().int(),
  expiresAt: z.iso.datetime(),
});
export type RecipientList = z.infer<typeof recipientListSchema>;

/** The numbers typed or pasted, or an uploaded list (ADR 0034), beside the fields of /api/v2. */
const typedMsisdns = z.array(z.string().max(64)).max(MAX_PASTED_NUMBERS);
const recipientListId = accountResource('recipient-list', z.uuid()).optional();

/** /api/v2's members, with the console's marks on those naming the account's resources. */
function marked<S extends ReturnType<typeof previewShape<typeof typedMsisdns>>>(shape: S) {
  return {
    ...shape,
    contactGroupId: accountResource('contact-group', shape.contactGroupId),
    templateId: accountResource('template', shape.templateId),
    recipientListId,
  };
}

/** preview-cost's body: /api/v2's, with an uploaded list for numbers. */
export const previewBodySchema = z
  .strictObject(marked(previewShape(typedMsisdns)))
  .superRefine(messageRules);
export type PreviewBody = z.input<typeof previewBodySchema>;

/** The send's body: /api/v2's, with an uploaded list for numbers. */
export const sendBodySchema = z
  .strictObject({
    ...marked(sendShape(typedMsisdns)),
    // A name, not an id, but the account's own (or one shared with it) all the same.
    sender: accountResource('sender', senderNameSchema),
  })
  .superRefine(messageRules);
export type SendBody = z.input<typeof sendBodySchema>;

export { recipientTallySchema, type RecipientTally };

/** What a send would cost: /api/v2's preview-cost answer, which says `dryRun` itself. */
export const estimateSchema = costEstimateSchema.omit({ dryRun: true });
export type Estimate = z.infer<typeof estimateSchema>;

/** A send accepted: /api/v2's answer, with `scheduledTime` null rather than absent. */
export const acceptedSchema = sendAcceptedSchema.extend({
  scheduledTime: z.iso.datetime().nullable(),
});
export type Accepted = z.infer<typeof acceptedSchema>;

/** POST /messages answers one or the other: `dryRun` tells which. */
export const sendAnswerSchema = z.discriminatedUnion('dryRun', [
  estimateSchema.extend({ dryRun: z.literal(true) }),
  acceptedSchema.extend({ dryRun: z.literal(false) }),
]);
export type SendAnswer = z.infer<typeof sendAnswerSchema>;

export const composeEndpoints = endpoints({
  'POST /recipient-lists': {
    upload: { kind: 'file', types: ['text/plain', 'text/csv'] },
    status: 201,
    response: recipientListSchema,
  },
  'POST /messages/preview-cost': { body: previewBodySchema, response: estimateSchema },
  'POST /messages': { body: sendBodySchema, response: sendAnswerSchema },
});
