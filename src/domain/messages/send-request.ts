import type { NumberList } from '../recipients/number-list.js';
import type { TemplateVariables } from './render-template.js';

/*
 * What a send or a preview asks, as the use cases receive it: parsed from the request by its
 * schema (api/contract/sms.ts for /api/v2, whose byte scanner yields the same command, and
 * console/contract/compose.ts), so every field already holds its type and its field rules.
 */

/** The text: given, or a saved template of the account with values for its placeholders. */
export type MessageText =
  | { readonly content: string }
  | { readonly templateId: number; readonly variables: TemplateVariables };

export interface PreviewRequest {
  readonly text: MessageText;
  /** Numbers given; with `contactGroupId`, the union is sent. */
  readonly numbers?: NumberList;
  readonly contactGroupId?: number;
}

export interface SendRequest extends PreviewRequest {
  /** An existing sender name of the account's (its approval is the use case's to check). */
  readonly sender: string;
  /** The instant to send at (its being in the future is the use case's to check); null: now. */
  readonly scheduledAt: number | null;
  /** Only the estimate: nothing is charged, stored or sent. */
  readonly dryRun: boolean;
}
