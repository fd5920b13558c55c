import type { MessageStore } from '../domain/messages/message-store.js';
import type { RecipientStore } from '../domain/recipients/recipient-store.js';
import { compactRecipient } from '../domain/recipients/compact-list.js';
import type { CompactListCache } from '../domain/recipients/compact-list-cache.js';
import type {
  NewRecipientRow,
  RecipientChunkWriter,
} from '../domain/recipients/recipient-chunk-writer.js';

/** A chunk of recipient rows written: `fromSeq + 1` … `toSeq` of the message's `total`. */
export interface MaterialisedChunk {
  readonly messageId: number;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly total: number;
}

/**
 * Expands one chunk of the oldest unmaterialised message into recipient rows. Returns the
 * number of rows written (0 when there is nothing to do or another worker took the chunk).
 */
export async function materialiseNextChunk(
  store: MessageStore & RecipientStore,
  engine: RecipientChunkWriter,
  cache: CompactListCache,
  chunkSize: number,
  nowMs: number,
): Promise<number> {
  const chunk = await materialiseNext(store, engine, cache, chunkSize, nowMs);
  return chunk ? chunk.toSeq - chunk.fromSeq : 0;
}

/**
 * Expands one chunk of the oldest unmaterialised message into recipient rows, committed when it
 * returns; null when there is nothing to do or another worker took the chunk.
 * Runs safely in several processes: the chunk write is conditional on `materialised_upto`.
 * A row's `updated_at` is the message's accept time, when its status was set, not the time of
 * materialisation: a recipient reads the same before and after its row exists.
 */
export async function materialiseNext(
  store: MessageStore & RecipientStore,
  engine: RecipientChunkWriter,
  cache: CompactListCache,
  chunkSize: number,
  _nowMs: number,
): Promise<MaterialisedChunk | null> {
  const [message] = await store.unmaterialisedMessages(1);
  if (!message) return null;
  const list = await cache.get(store, message.id);
  const blocked = new Set(list.blockedSeqs);
  const from = message.materialisedUpto;
  const to = Math.min(message.recipientTotal, from + chunkSize);
  const rows: NewRecipientRow[] = new Array(to - from);
  for (let seq = from + 1; seq <= to; seq++) {
    const { msisdn, status } = compactRecipient(list, seq, blocked);
    rows[seq - from - 1] = { seq, msisdn, status };
  }
  const written = await engine.insertRecipientChunk(message.id, from, to, rows, message.createdAt);
  if (!written) return null;
  return { messageId: message.id, fromSeq: from, toSeq: to, total: message.recipientTotal };
}
