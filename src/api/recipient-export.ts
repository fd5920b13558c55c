import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { getMessage } from '../domain/messages/get-message.js';
import type { CompactListCache } from '../domain/recipients/compact-list-cache.js';
import { listRecipients } from '../domain/recipients/list-recipients.js';
import type { RecipientStatus } from '../domain/statuses.js';
import type { Store } from '../domain/store.js';
import { RECIPIENT_CSV_COLUMNS, type ExportFormat } from './contract/sms.js';
import { presentRecipient } from './presenters.js';

/*
 * Every recipient of a message, streamed: the one export that /api/v2 answers
 * (GET /sms/{uuid}/recipients/export) and the console's download answer with.
 */

/** Recipients per page of the export: big enough that per-page reads are noise. */
const EXPORT_PAGE = 5_000;

const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/**
 * Streams every recipient of a message (or of one status) as CSV (`RECIPIENT_CSV_COLUMNS`, a
 * header line first) or NDJSON (one recipient a line, as a recipients page's items). The rows
 * are read a cursor page at a time through the recipients use case, and a page is read only
 * when the response has taken the one before (`Readable.from` pulls the generator as the socket
 * drains), so memory stays one page deep whatever the size of the message. The message is
 * checked (and its refNo read) before the headers go, so a missing or foreign message is an
 * ordinary error.
 */
export async function sendRecipientExport(
  store: Store,
  compactLists: CompactListCache,
  accountId: number,
  uuid: string,
  { status, format }: { status?: RecipientStatus; format: ExportFormat },
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { message } = await getMessage(store, accountId, uuid);
  async function* lines(): AsyncGenerator<string> {
    if (format === 'csv') yield `${RECIPIENT_CSV_COLUMNS.join(',')}\r\n`;
    let after = 0;
    for (;;) {
      const page = await listRecipients(store, compactLists, accountId, uuid, {
        after,
        limit: EXPORT_PAGE,
        status,
      });
      let chunk = '';
      for (const recipient of page.items) {
        const r = presentRecipient(recipient);
        chunk +=
          format === 'csv'
            ? `${r.seq},${csvCell(r.msisdn)},${r.status},${r.updatedAt ?? ''}\r\n`
            : `${JSON.stringify(r)}\n`;
      }
      if (chunk) yield chunk;
      if (!page.hasMore) return;
      after = page.nextCursor!;
    }
  }
  const name = `${message.refNo}-recipients${status ? `-${status}` : ''}.${format}`.replace(
    /[^\w.-]/g,
    '_',
  );
  reply.header('content-type', MEDIA_TYPES[format]);
  reply.header('content-disposition', `attachment; filename="${name}"`);
  reply.header('cache-control', 'private, no-store');
  reply.header('x-content-type-options', 'nosniff');
  return reply.send(Readable.from(lines(), { objectMode: false }));
}

/**
 * A number as a CSV cell. Valid numbers are digits; an invalid one is kept as the customer sent
 * it, so it is quoted when it holds a comma, quote or line break (RFC 4180), and a leading
 * `= + - @` or tab is prefixed with `'` so that a spreadsheet shows it rather than runs it.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
