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
import { countParts } from './message-parts.js';
import { contentProblem } from './message-text.js';
import { renderTemplate } from './render-template.js';
import { checkScheduledTime } from './scheduled-time.js';
import type { MessageText, PreviewRequest, SendRequest } from './send-request.js';

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

/**
 * Checks a send against every rule that needs no write, nothing stored. The request's fields
 * hold their rules already (its schema parsed it); what is left is what the store knows and the
 * clock: the sender, the template and group, the price and the time.
 */
export async function prepareSend(
  store: SendReads,
  accountId: number,
  request: SendRequest,
  nowMs: number,
): Promise<PreparedSend> {
  const sender = await checkSender(store, accountId, request.sender);
  const scheduledAt =
    request.scheduledAt === null ? null : checkScheduledTime(request.scheduledAt, nowMs);
  const limit = LIMITS.sendContentChars;
  return request.dryRun
    ? {
        ...(await estimate(store, accountId, request, limit, countRecipients)),
        sender,
        scheduledAt,
        dryRun: true,
      }
    : {
        ...(await estimate(store, accountId, request, limit, resolveRecipients)),
        sender,
        scheduledAt,
        dryRun: false,
      };
}

/** The preview-cost request: content up to 2,000 characters, no sender. */
export async function preparePreview(
  store: PreviewReads,
  accountId: number,
  request: PreviewRequest,
): Promise<PreparedPreview> {
  return estimate(store, accountId, request, LIMITS.previewContentChars, countRecipients);
}

/** Parts, recipients and cost: what send, `dryRun` and preview-cost have in common. */
async function estimate<R extends RecipientCounts>(
  store: PreviewReads,
  accountId: number,
  request: PreviewRequest,
  maxContentChars: number,
  recipientsOf: (
    store: ContactsStore & BlocklistStore,
    accountId: number,
    numbers: NumberList | undefined,
    contactGroupId: number | undefined,
  ) => Promise<R>,
): Promise<Estimated<R>> {
  const { numbers, contactGroupId } = request;
  if (numbers === undefined && contactGroupId === undefined) {
    throw invalidParameter('Give the recipients as msisdns or contactGroupId');
  }
  const content = await resolveContent(store, accountId, request.text, maxContentChars);
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

/** The text to send: as given, or the template filled; either way within the text's rules. */
async function resolveContent(
  store: TemplateStore,
  accountId: number,
  text: MessageText,
  maxChars: number,
): Promise<PreparedContent> {
  const content = 'content' in text ? text.content : await fillTemplate(store, accountId, text);
  const problem = contentProblem(content, maxChars);
  if (problem) throw new DomainError(problem.code, problem.message);
  return { content, characters: countCharacters(content), parts: countParts(content) };
}

async function fillTemplate(
  store: TemplateStore,
  accountId: number,
  text: Extract<MessageText, { templateId: number }>,
): Promise<string> {
  const template = await store.findTemplate(text.templateId);
  if (!template)
    throw new DomainError('TEMPLATE_NOT_FOUND', `Template ${text.templateId} does not exist`);
  if (template.accountId !== accountId) {
    throw new DomainError('FORBIDDEN', `Template ${text.templateId} belongs to another account`);
  }
  return renderTemplate(template.body, text.variables);
}

async function checkSender(store: SenderStore, accountId: number, name: string): Promise<string> {
  const sender = await store.findSenderByName(name);
  if (!sender) throw new DomainError('SENDER_NOT_FOUND', `Sender name ${name} does not exist`);
  if (sender.accountId !== accountId && !(await store.isSenderSharedWith(sender.id, accountId))) {
    throw new DomainError('FORBIDDEN', `Sender name ${name} belongs to another account`);
  }
  if (sender.status !== 'approved') {
    throw new DomainError(
      'SENDER_NOT_APPROVED',
      `Sender name ${name} is ${sender.status}; only approved senders can send`,
    );
  }
  return sender.name;
}
