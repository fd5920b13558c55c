import { DomainError, invalidParameter } from '../errors.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { BlocklistStore } from '../contacts/blocklist-store.js';
import type { ContactsStore } from '../contacts/contacts-store.js';
import type { SenderStore } from '../senders/sender-store.js';
import type { TemplateStore } from '../templates/template-store.js';
import type { NumberList } from '../recipients/number-list.js';
import {
  countRecipients,
  resolveRecipients,
  type RecipientCounts,
  type ResolvedRecipients,
} from '../recipients/resolve-recipients.js';
import { countCharacters, LIMITS } from '../limits.js';
import { checkSenderName } from '../senders/sender-name.js';
import { countParts } from './message-parts.js';
import { checkVariables, renderTemplate } from './render-template.js';
import { parseScheduledTime } from './scheduled-time.js';

const SEND_FIELDS = new Set([
  'sender',
  'content',
  'contactGroupId',
  'templateId',
  'variables',
  'scheduledTime',
  'dryRun',
]);
const PREVIEW_FIELDS = new Set(['content', 'contactGroupId', 'templateId', 'variables']);

export interface PreparedContent {
  readonly content: string;
  readonly characters: number;
  readonly parts: number;
}

/** Parts, recipients and cost; `R`: the recipients counted, or resolved into their list. */
interface Estimated<R extends RecipientCounts> extends PreparedContent {
  readonly recipients: R;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly balance: number;
}

export type PreparedPreview = Estimated<RecipientCounts>;

/** What a preview reads: the account's price and balance, a template, a contact group, blocklists. */
export type PreviewReads = AccountStore & TemplateStore & ContactsStore & BlocklistStore;
/** What preparing a send reads: a preview's, and the sender. */
export type SendReads = PreviewReads & SenderStore;

interface SendFields {
  readonly sender: string;
  readonly scheduledAt: number | null;
}

/** A dry run only counts its recipients; a send has their list to store. */
export type PreparedSend =
  | (Estimated<RecipientCounts> & SendFields & { readonly dryRun: true })
  | (Estimated<ResolvedRecipients> & SendFields & { readonly dryRun: false });

/** Checks a send request against every rule that needs no write; nothing is stored. */
export async function prepareSend(
  store: SendReads,
  accountId: number,
  fields: Record<string, unknown>,
  numbers: NumberList | undefined,
  nowMs: number,
): Promise<PreparedSend> {
  rejectUnknownFields(fields, SEND_FIELDS);
  const sender = await checkSender(store, accountId, fields.sender);
  const dryRun = optionalBoolean(fields.dryRun, 'dryRun') ?? false;
  const scheduledAt =
    fields.scheduledTime === undefined ? null : parseScheduledTime(fields.scheduledTime, nowMs);
  const limit = LIMITS.sendContentChars;
  return dryRun
    ? {
        ...(await estimate(store, accountId, fields, numbers, limit, countRecipients)),
        sender,
        scheduledAt,
        dryRun,
      }
    : {
        ...(await estimate(store, accountId, fields, numbers, limit, resolveRecipients)),
        sender,
        scheduledAt,
        dryRun,
      };
}

/** The preview-cost request: content up to 2,000 characters, no sender. */
export async function preparePreview(
  store: PreviewReads,
  accountId: number,
  fields: Record<string, unknown>,
  numbers: NumberList | undefined,
): Promise<PreparedPreview> {
  rejectUnknownFields(fields, PREVIEW_FIELDS);
  return estimate(store, accountId, fields, numbers, LIMITS.previewContentChars, countRecipients);
}

/** Parts, recipients and cost: what send, `dryRun` and preview-cost have in common. */
async function estimate<R extends RecipientCounts>(
  store: PreviewReads,
  accountId: number,
  fields: Record<string, unknown>,
  numbers: NumberList | undefined,
  maxContentChars: number,
  recipientsOf: (
    store: ContactsStore & BlocklistStore,
    accountId: number,
    numbers: NumberList | undefined,
    contactGroupId: number | undefined,
  ) => Promise<R>,
): Promise<Estimated<R>> {
  const contactGroupId = optionalId(fields.contactGroupId, 'contactGroupId');
  if (numbers === undefined && contactGroupId === undefined) {
    throw invalidParameter('Give the recipients as msisdns or contactGroupId');
  }
  const content = await resolveContent(store, accountId, fields, maxContentChars);
  const recipients = await recipientsOf(store, accountId, numbers, contactGroupId);
  const account = await store.findAccount(accountId);
  if (!account) throw new DomainError('UNAUTHORIZED', 'The account no longer exists');
  return {
    ...content,
    recipients,
    pricePerPart: account.pricePerPart,
    cost: content.parts * recipients.charged * account.pricePerPart,
    balance: account.balance,
  };
}

async function resolveContent(
  store: TemplateStore,
  accountId: number,
  fields: Record<string, unknown>,
  maxChars: number,
): Promise<PreparedContent> {
  const templateId = optionalId(fields.templateId, 'templateId');
  const given = fields.content;
  if ((given === undefined) === (templateId === undefined)) {
    throw invalidParameter('Give exactly one of content or templateId');
  }
  let content: string;
  if (templateId !== undefined) {
    const template = await store.findTemplate(templateId);
    if (!template)
      throw new DomainError('TEMPLATE_NOT_FOUND', `Template ${templateId} does not exist`);
    if (template.accountId !== accountId) {
      throw new DomainError('FORBIDDEN', `Template ${templateId} belongs to another account`);
    }
    content = renderTemplate(template.body, checkVariables(fields.variables));
  } else {
    if (typeof given !== 'string') throw invalidParameter('content must be a string');
    if (fields.variables !== undefined)
      throw invalidParameter('variables go with templateId, not content');
    content = given;
  }
  if (content.trim().length === 0) throw invalidParameter('content must not be empty');
  // U+0000 cannot be sent as SMS text, and PostgreSQL text cannot store it.
  if (content.includes('\u0000'))
    throw invalidParameter('content must not contain the NUL character (\\u0000)');
  const characters = countCharacters(content);
  if (characters > maxChars) {
    throw new DomainError(
      'CONTENT_TOO_LONG',
      `content has ${characters} characters; the limit is ${maxChars}`,
    );
  }
  return { content, characters, parts: countParts(content) };
}

async function checkSender(store: SenderStore, accountId: number, value: unknown): Promise<string> {
  if (typeof value !== 'string' || value.length === 0)
    throw invalidParameter('sender is required and must be a string');
  checkSenderName(value);
  const sender = await store.findSenderByName(value);
  if (!sender) throw new DomainError('SENDER_NOT_FOUND', `Sender name ${value} does not exist`);
  if (sender.accountId !== accountId && !(await store.isSenderSharedWith(sender.id, accountId))) {
    throw new DomainError('FORBIDDEN', `Sender name ${value} belongs to another account`);
  }
  if (sender.status !== 'approved') {
    throw new DomainError(
      'SENDER_NOT_APPROVED',
      `Sender name ${value} is ${sender.status}; only approved senders can send`,
    );
  }
  return sender.name;
}

function rejectUnknownFields(fields: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  const unknown = Object.keys(fields).filter((key) => !allowed.has(key));
  if (unknown.length > 0) throw invalidParameter(`Unknown field(s): ${unknown.join(', ')}`);
}

function optionalId(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidParameter(`${name} must be a positive integer`);
  }
  return value;
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidParameter(`${name} must be true or false`);
  return value;
}
