import {
  GROUP_MEMBERS,
  NUMBER_POOL,
  OWN_BLOCKED,
  PLATFORM_BLOCKED,
  type Actor,
  type SendCommand,
  type SendFault,
} from './scenario.js';

/**
 * What the money property test expects, worked out from the request alone and the state at the
 * start of its batch, independently of the server's code: the parts of a content, the charged
 * recipients, the cost, and which rule refuses a faulty request.
 */

/** One account as the test set it up. */
export interface ActorWorld {
  readonly actor: Actor;
  readonly accountId: number;
  readonly key: string;
  readonly readOnlyKey: string;
  readonly sender: string;
  readonly pendingSender: string;
  readonly groupId: number;
  readonly pricePerPart: number;
}

export type MessageStatusInModel = 'scheduled' | 'pending' | 'failed' | 'cancelled';

export interface MessageInModel {
  readonly uuid: string;
  readonly cost: number;
  readonly scheduledAt: number | null;
  status: MessageStatusInModel;
}

export interface LedgerEntry {
  readonly reason: 'top-up' | 'send' | 'hold' | 'refund';
  readonly delta: number;
  readonly uuid: string | null;
}

/** What the test knows an account must hold, from the answers it was given. */
export interface ActorModel {
  readonly pricePerPart: number;
  balance: number;
  readonly ledger: LedgerEntry[];
  readonly messages: Map<string, MessageInModel>;
  /** Idempotency-Keys whose first use was accepted: the body sent and the answer given. */
  readonly keys: Map<string, { readonly body: string; readonly answer: unknown }>;
}

export function emptyModel(credits: number, pricePerPart: number): ActorModel {
  return {
    pricePerPart,
    balance: credits,
    ledger: credits > 0 ? [{ reason: 'top-up', delta: credits, uuid: null }] : [],
    messages: new Map(),
    keys: new Map(),
  };
}

export type Expected =
  | { readonly kind: 'refused'; readonly status: number; readonly code: string }
  | { readonly kind: 'replay'; readonly answer: unknown }
  | {
      readonly kind: 'estimate';
      readonly parts: number;
      readonly charged: number;
      readonly cost: number;
    }
  | {
      readonly kind: 'accept';
      readonly parts: number;
      readonly charged: number;
      readonly cost: number;
      readonly status: 'scheduled' | 'pending' | 'failed';
    };

/** A send-shaped request as it goes out, and what went into it. */
export interface SendRequest {
  readonly command: SendCommand;
  readonly url: string;
  readonly body: string;
  readonly apiKey: string | undefined;
  readonly scheduledAt: number | null;
}

const CONTENT_LIMIT = { send: 1000, 'dry-run': 1000, preview: 2000 } as const;
const MINUTE_MS = 60_000;

/** Builds the request a command stands for, at `nowMs`, as `self` (against `other`). */
export function buildSendRequest(
  command: SendCommand,
  self: ActorWorld,
  other: ActorWorld,
  nowMs: number,
  unknownKey: string,
): SendRequest {
  const { fault, via } = command;
  const fields: Record<string, unknown> = {};
  if (via !== 'preview') {
    fields.sender =
      fault === 'unknown-sender'
        ? 'NOSUCHNAME'
        : fault === 'unapproved-sender'
          ? self.pendingSender
          : fault === 'others-sender'
            ? other.sender
            : self.sender;
  }
  fields.content =
    fault === 'empty-content'
      ? '   '
      : fault === 'content-too-long'
        ? 'x'.repeat(CONTENT_LIMIT[via] + 1)
        : command.content;
  fields.msisdns = fault === 'no-recipients' ? [] : command.numbers.map(renderNumber);
  if (fault === 'others-group') fields.contactGroupId = other.groupId;
  else if (command.useGroup && fault !== 'no-recipients') fields.contactGroupId = self.groupId;
  let scheduledAt: number | null = null;
  if (fault === 'past-schedule') scheduledAt = nowMs - MINUTE_MS;
  else if (command.scheduleInMinutes !== null)
    scheduledAt = nowMs + command.scheduleInMinutes * MINUTE_MS;
  if (scheduledAt !== null) fields.scheduledTime = new Date(scheduledAt).toISOString();
  if (via === 'dry-run') fields.dryRun = true;
  if (fault === 'unknown-field') fields.priority = 'high';
  const json = JSON.stringify(fields);
  return {
    command,
    url: via === 'preview' ? '/api/v2/sms/preview-cost' : '/api/v2/sms/send',
    body: fault === 'bad-json' ? json.slice(0, -1) : json,
    apiKey:
      fault === 'no-key'
        ? undefined
        : fault === 'unknown-key'
          ? unknownKey
          : fault === 'read-only-key'
            ? self.readOnlyKey
            : self.key,
    scheduledAt,
  };
}

function renderNumber(entry: SendCommand['numbers'][number]): string {
  if (entry.kind === 'invalid') return entry.text;
  const suffix = String(NUMBER_POOL[entry.index]).padStart(9, '0');
  return entry.form === '0' ? `0${suffix}` : `66${suffix}`;
}

/**
 * The answer a request must get when nothing else runs at once. Concurrency can change only
 * three things, which the test judges after the batch: a charged send may be refused for
 * credits, and a request with an Idempotency-Key may meet a concurrent first use of that key.
 */
export function expectSend(request: SendRequest, model: ActorModel, nowMs: number): Expected {
  const { command, body } = request;
  const early = earlyRefusal(command.fault);
  if (early) return early;
  const key = command.idempotencyKey;
  const earlier = key === null ? undefined : model.keys.get(key);
  if (earlier)
    return earlier.body === body ? { kind: 'replay', answer: earlier.answer } : KEY_REUSED;
  const ofFields = fieldRefusal(command.fault);
  if (ofFields) return ofFields;
  // A retry's scheduledTime may have passed since its first use.
  if (request.scheduledAt !== null && request.scheduledAt <= nowMs)
    return refused(400, 'INVALID_SCHEDULED_TIME');
  const ofContent = contentRefusal(command.fault);
  if (ofContent) return ofContent;

  const valid = new Set<number>();
  for (const entry of command.numbers) if (entry.kind === 'pool') valid.add(entry.index);
  if (command.useGroup) for (const index of GROUP_MEMBERS[command.actor]) valid.add(index);
  if (valid.size === 0) return refused(400, 'INVALID_NUMBER');
  const blocked = new Set([...OWN_BLOCKED[command.actor], ...PLATFORM_BLOCKED]);
  const charged = [...valid].filter((index) => !blocked.has(index)).length;
  const parts = partsOf(command.content);
  const cost = parts * charged * model.pricePerPart;
  if (command.via !== 'send') return { kind: 'estimate', parts, charged, cost };
  const status = request.scheduledAt !== null ? 'scheduled' : charged === 0 ? 'failed' : 'pending';
  return { kind: 'accept', parts, charged, cost, status };
}

/** 1 part up to 70 UTF-16 units, then parts of 67 (the content has no surrogate pairs). */
export function partsOf(content: string): number {
  return content.length <= 70 ? 1 : Math.ceil(content.length / 67);
}

export const KEY_REUSED: Expected = refused(422, 'IDEMPOTENCY_KEY_REUSED');

/** Whether a request with this fault is refused before its Idempotency-Key is looked at. */
export function refusedBeforeTheKey(fault: SendFault | null): boolean {
  return earlyRefusal(fault) !== null;
}

/** Refusals decided before the Idempotency-Key is looked at: the key, the scope, the JSON. */
function earlyRefusal(fault: SendFault | null): Expected | null {
  switch (fault) {
    case 'no-key':
    case 'unknown-key':
      return refused(401, 'UNAUTHORIZED');
    case 'read-only-key':
      return refused(403, 'SCOPE_INSUFFICIENT');
    case 'bad-json':
      return refused(400, 'INVALID_JSON');
    default:
      return null;
  }
}

/** Refusals of the fields checked before scheduledTime: unknown ones, the sender. */
function fieldRefusal(fault: SendFault | null): Expected | null {
  switch (fault) {
    case 'unknown-field':
      return refused(400, 'INVALID_PARAMETER');
    case 'unknown-sender':
      return refused(400, 'SENDER_NOT_FOUND');
    case 'unapproved-sender':
      return refused(400, 'SENDER_NOT_APPROVED');
    case 'others-sender':
      return refused(403, 'FORBIDDEN');
    default:
      return null;
  }
}

/** Refusals of the content and the recipients, checked after scheduledTime. */
function contentRefusal(fault: SendFault | null): Expected | null {
  switch (fault) {
    case 'no-recipients':
    case 'empty-content':
      return refused(400, 'INVALID_PARAMETER');
    case 'content-too-long':
      return refused(400, 'CONTENT_TOO_LONG');
    case 'others-group':
      return refused(403, 'FORBIDDEN');
    default:
      return null;
  }
}

function refused(status: number, code: string): Expected {
  return { kind: 'refused', status, code };
}
