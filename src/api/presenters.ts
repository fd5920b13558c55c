import type { MessageDetails } from '../domain/messages/get-message.js';
import type { CostEstimate, SendAccepted } from '../domain/messages/send-message.js';
import type { Message } from '../domain/messages/message-store.js';
import type { RecipientRecord } from '../domain/recipients/recipient-store.js';
import type { RecipientStatus } from '../domain/statuses.js';

let lastMs = NaN;
let lastIso = '';
/**
 * A time as the API writes it. Times come in runs of one value (a batch's recipients share
 * their `updatedAt`), so the last one is kept.
 */
function iso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

export function presentMessage(message: Message, counts?: ReadonlyMap<RecipientStatus, number>) {
  return {
    uuid: message.uuid,
    refNo: message.refNo,
    sender: message.sender,
    content: message.content,
    parts: message.parts,
    status: message.status,
    ...(message.scheduledAt !== null ? { scheduledTime: iso(message.scheduledAt) } : {}),
    createdAt: iso(message.createdAt),
    updatedAt: iso(message.updatedAt),
    completedAt: message.completedAt === null ? null : iso(message.completedAt),
    recipients: presentRecipientCounts(message),
    creditsPerPart: message.pricePerPart,
    cost: message.cost,
    ...(counts ? { drSummary: Object.fromEntries(counts) as Record<RecipientStatus, number> } : {}),
  };
}

/** What became of a message's requested numbers, as both APIs show it. */
export function presentRecipientCounts(message: Message) {
  return {
    requested: message.requestedCount,
    unique: message.recipientTotal,
    duplicates: message.duplicateCount,
    valid: message.validCount,
    invalid: message.invalidCount,
    blocked: message.blockedCount,
    charged: message.chargedCount,
  };
}

export function presentMessageDetails(details: MessageDetails) {
  return presentMessage(details.message, details.complete ? details.counts : undefined);
}

export function presentAccepted(result: SendAccepted) {
  return {
    uuid: result.uuid,
    refNo: result.refNo,
    status: result.status,
    sender: result.sender,
    parts: result.parts,
    characters: result.characters,
    ...(result.scheduledAt !== null ? { scheduledTime: iso(result.scheduledAt) } : {}),
    createdAt: iso(result.createdAt),
    recipients: result.recipients,
    creditsPerPart: result.pricePerPart,
    cost: result.cost,
    balance: result.balance,
  };
}

export function presentEstimate(estimate: CostEstimate, dryRun?: boolean) {
  return {
    ...(dryRun ? { dryRun: true } : {}),
    parts: estimate.parts,
    characters: estimate.characters,
    recipients: estimate.recipients,
    creditsPerPart: estimate.pricePerPart,
    cost: estimate.cost,
    balance: estimate.balance,
    sufficientCredits: estimate.sufficientCredits,
  };
}

export function presentRecipient(recipient: RecipientRecord) {
  return {
    seq: recipient.seq,
    msisdn: recipient.msisdn,
    status: recipient.status,
    updatedAt: recipient.updatedAt === null ? null : iso(recipient.updatedAt),
  };
}

export function presentSummary(summary: ReadonlyMap<RecipientStatus, number>) {
  return [...summary].map(([status, count]) => ({ status, count }));
}
