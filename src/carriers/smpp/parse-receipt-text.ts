// The text of a delivery receipt, SMPP 3.4 Appendix B:
//   id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:...
// The appendix calls the format SMSC-specific, and carriers take it at its word: keys come in any
// case, some are missing, ids are decimal or hex (or neither), stat is spelled out in full. So
// keys are found wherever they start a word, and each value runs to the next key.

/** The seven-letter final states of Appendix B, plus ENROUTE for intermediate notifications. */
export type ReceiptStat =
  'DELIVRD' | 'EXPIRED' | 'DELETED' | 'UNDELIV' | 'ACCEPTD' | 'UNKNOWN' | 'REJECTD' | 'ENROUTE';

export interface ReceiptText {
  /** The SMSC message id as the text gives it, unchanged (decimal or hex, leading zeros kept). */
  readonly id: string;
  readonly stat: ReceiptStat;
  /** stat as written, e.g. `DELIVERED`; an unrecognised one becomes stat UNKNOWN. */
  readonly statText: string;
  readonly sub?: string;
  readonly dlvrd?: string;
  /** YYMMDDhhmm (sometimes with seconds), as written. */
  readonly submitDate?: string;
  readonly doneDate?: string;
  readonly err?: string;
  readonly text?: string;
}

const KEY = /(?:^|\s)(id|sub|dlvrd|submit[ _]date|done[ _]date|stat|err|text)\s*:/gi;

const STATS: Record<string, ReceiptStat> = {
  DELIVRD: 'DELIVRD',
  DELIVERED: 'DELIVRD',
  EXPIRED: 'EXPIRED',
  DELETED: 'DELETED',
  UNDELIV: 'UNDELIV',
  UNDELIVERABLE: 'UNDELIV',
  UNDELIVERED: 'UNDELIV',
  ACCEPTD: 'ACCEPTD',
  ACCEPTED: 'ACCEPTD',
  UNKNOWN: 'UNKNOWN',
  REJECTD: 'REJECTD',
  REJECTED: 'REJECTD',
  ENROUTE: 'ENROUTE',
};

/** Parses receipt text; null unless it has at least an id and a stat. */
export function parseReceiptText(shortMessage: Buffer | string): ReceiptText | null {
  const text = typeof shortMessage === 'string' ? shortMessage : shortMessage.toString('latin1');
  const fields = new Map<string, string>();
  let key: string | null = null;
  let valueFrom = 0;
  for (const match of text.matchAll(KEY)) {
    if (key !== null && !fields.has(key))
      fields.set(key, text.slice(valueFrom, match.index).trim());
    key = (match[1] as string).toLowerCase().replace('_', ' ');
    valueFrom = match.index + match[0].length;
    // text is the last field and free-form: a key-like word inside it is part of it.
    if (key === 'text') break;
  }
  if (key !== null && !fields.has(key)) fields.set(key, text.slice(valueFrom).trim());

  const id = fields.get('id');
  const statText = fields.get('stat');
  if (!id || !statText) return null;
  return {
    id,
    stat: STATS[statText.toUpperCase()] ?? 'UNKNOWN',
    statText,
    sub: fields.get('sub'),
    dlvrd: fields.get('dlvrd'),
    submitDate: fields.get('submit date'),
    doneDate: fields.get('done date'),
    err: fields.get('err'),
    text: fields.get('text'),
  };
}
