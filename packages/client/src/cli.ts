#!/usr/bin/env node
// nok-sms: Nok's API from a terminal or a script, through the client (index.ts). Exit codes:
// 0 done; 1 Nok refused (its code printed); 2 a mistake in the command line; 3 Nok could not be
// reached; 4 a webhook failed verification while listening (the listener goes on).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import {
  Nok,
  NokError,
  verifyWebhook,
  WebhookVerificationError,
  type Message,
  type RecipientStatus,
  type SendRequest,
} from './index.js';

const USAGE = `nok-sms: Nok's API from the command line

  nok-sms send --sender NAME (--to NUMBER... | --file FILE | --group ID)
               (--content TEXT | --template ID [--var NAME=VALUE]...)
               [--schedule TIME] [--dry-run] [--wait]
  nok-sms messages [--status S] [--limit N]
  nok-sms message UUID
  nok-sms recipients UUID [--status S] [--csv | --ndjson]
  nok-sms cancel UUID
  nok-sms balance
  nok-sms senders
  nok-sms listen --port P --secret whsec_...

Options: --url URL (or NOK_URL), --api-key KEY (or NOK_API_KEY), --json (one JSON document
per answer, for scripts). --file - reads numbers from standard input, one per line.
Exit codes: 0 done, 1 Nok refused (its error code is printed), 2 a mistake in the command
line, 3 Nok could not be reached.`;

class UsageError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  sender: { type: 'string' },
  to: { type: 'string', multiple: true },
  file: { type: 'string' },
  group: { type: 'string' },
  content: { type: 'string' },
  template: { type: 'string' },
  var: { type: 'string', multiple: true },
  schedule: { type: 'string' },
  'dry-run': { type: 'boolean' },
  wait: { type: 'boolean' },
  interval: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  csv: { type: 'boolean' },
  ndjson: { type: 'boolean' },
  port: { type: 'string' },
  secret: { type: 'string' },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

export async function main(argv: string[], out = process.stdout): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) return usage(values.help ? undefined : 'no command given', 0);
  const print = (human: string, json: unknown) =>
    out.write(values.json ? `${JSON.stringify(json)}\n` : `${human}\n`);
  try {
    if (command === 'listen') return await listen(values, out);
    const nok = client(values);
    switch (command) {
      case 'send':
        return await send(nok, values, print, out);
      case 'messages': {
        const found = [];
        const limit = optionalInteger(values.limit, '--limit') ?? 20;
        for await (const m of nok.messages(
          values.status ? { status: values.status as never } : {},
        )) {
          found.push(m);
          if (found.length >= limit) break;
        }
        print(
          found
            .map((m) => `${m.uuid}  ${m.refNo}  ${m.status.padEnd(9)}  ${m.createdAt}  ${m.sender}`)
            .join('\n') || '(no messages)',
          found,
        );
        return 0;
      }
      case 'message': {
        const message = await nok.message(uuidOf(rest));
        print(describe(message), message);
        return 0;
      }
      case 'recipients':
        return await recipients(nok, uuidOf(rest), values, out);
      case 'cancel': {
        const cancelled = await nok.cancel(uuidOf(rest));
        print(`${cancelled.uuid} cancelled; ${cancelled.refunded} credits refunded`, cancelled);
        return 0;
      }
      case 'balance': {
        const balance = await nok.balance();
        print(`${balance.balance} credits`, balance);
        return 0;
      }
      case 'senders': {
        const senders = await nok.senders();
        print(
          senders.data
            .map((s) => `${s.name.padEnd(11)}  ${s.status}${s.shared ? '  (shared)' : ''}`)
            .join('\n') || '(no sender names)',
          senders,
        );
        return 0;
      }
      default:
        return usage(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    if (error instanceof NokError) {
      process.stderr.write(
        values.json
          ? `${JSON.stringify({ status: error.status, code: error.code, error: error.message, requestId: error.requestId })}\n`
          : `nok-sms: ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}\n`,
      );
      return 1;
    }
    process.stderr.write(`nok-sms: Nok could not be reached: ${(error as Error).message}\n`);
    return 3;
  }
}

function usage(problem: string | undefined, code = 2): number {
  if (problem) process.stderr.write(`nok-sms: ${problem}\n\n`);
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}

function client(values: Values): Nok {
  const url = values.url ?? process.env.NOK_URL;
  const apiKey = values['api-key'] ?? process.env.NOK_API_KEY;
  if (!url) throw new UsageError('no Nok to talk to: give --url or set NOK_URL');
  if (!apiKey) throw new UsageError('no API key: give --api-key or set NOK_API_KEY');
  return new Nok({ url, apiKey });
}

function uuidOf(rest: string[]): string {
  if (rest.length !== 1) throw new UsageError('give one message UUID');
  return rest[0]!;
}

function optionalInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} takes a whole number`);
  return Number(value);
}

async function send(
  nok: Nok,
  values: Values,
  print: (human: string, json: unknown) => void,
  out: NodeJS.WritableStream,
): Promise<number> {
  if (!values.sender) throw new UsageError('send needs --sender');
  const msisdns = [
    ...(values.to ?? []),
    ...(values.file === undefined ? [] : numbersIn(values.file)),
  ];
  const group = optionalInteger(values.group, '--group');
  if (msisdns.length === 0 && group === undefined)
    throw new UsageError('send needs numbers: --to, --file or --group');
  if ((values.content === undefined) === (values.template === undefined))
    throw new UsageError('send needs one of --content and --template');
  const variables: Record<string, string> = {};
  for (const pair of values.var ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--var takes NAME=VALUE, not "${pair}"`);
    variables[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const request: SendRequest = {
    sender: values.sender,
    ...(msisdns.length > 0 && { msisdns }),
    ...(group !== undefined && { contactGroupId: group }),
    ...(values.content !== undefined
      ? { content: values.content }
      : { templateId: optionalInteger(values.template, '--template')!, variables }),
    ...(values.schedule !== undefined && { scheduledTime: values.schedule }),
    ...(values['dry-run'] && { dryRun: true }),
  } as SendRequest;
  const answer = await nok.send(request);
  if (!('uuid' in answer)) {
    print(
      `would cost ${answer.cost} credits for ${answer.recipients.charged} recipients (${answer.parts} part${answer.parts === 1 ? '' : 's'} each); balance ${answer.balance}`,
      answer,
    );
    return 0;
  }
  print(
    `${answer.uuid}  ${answer.refNo}: ${answer.recipients.charged} recipients, ${answer.cost} credits; balance ${answer.balance}`,
    answer,
  );
  if (!values.wait) return 0;
  const intervalMs = (optionalInteger(values.interval, '--interval') ?? 1) * 1000;
  const bar = out === process.stdout && process.stdout.isTTY && !values.json;
  for (;;) {
    const message = await nok.message(answer.uuid);
    const page = await nok.recipientPage(answer.uuid, { limit: 1 });
    const total = page.summary.reduce((n, s) => n + s.count, 0);
    const pending = page.summary.find((s) => s.status === 'pending')?.count ?? 0;
    if (bar) out.write(`\r${progress(total - pending, total)}`);
    if (message.drSummary || message.status === 'cancelled') {
      if (bar) out.write('\n');
      print(describe(message), message);
      return 0;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function numbersIn(file: string): string[] {
  const text = readFileSync(file === '-' ? 0 : file, 'utf8');
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function progress(done: number, total: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} final`;
}

function describe(message: Message): string {
  const lines = [
    `${message.uuid}  ${message.refNo}  ${message.status}`,
    `  from ${message.sender}, ${message.parts} part${message.parts === 1 ? '' : 's'}, ${message.cost} credits, created ${message.createdAt}`,
  ];
  if (message.scheduledTime) lines.push(`  scheduled for ${message.scheduledTime}`);
  if (message.drSummary) {
    lines.push(
      `  ${Object.entries(message.drSummary)
        .filter(([, n]) => n > 0)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ')}`,
    );
  }
  return lines.join('\n');
}

async function recipients(
  nok: Nok,
  uuid: string,
  values: Values,
  out: NodeJS.WritableStream,
): Promise<number> {
  if (values.csv && values.ndjson) throw new UsageError('give --csv or --ndjson, not both');
  const status = values.status as RecipientStatus | undefined;
  const format = values.csv ? 'csv' : values.ndjson || values.json ? 'ndjson' : undefined;
  if (format) {
    for await (const line of nok.exportLines(uuid, { format, ...(status ? { status } : {}) })) {
      out.write(`${line}\n`);
    }
    return 0;
  }
  for await (const r of nok.exportRecipients(uuid, status ? { status } : {})) {
    out.write(
      `${String(r.seq).padStart(7)}  ${r.msisdn.padEnd(13)}  ${r.status.padEnd(7)}  ${r.updatedAt ?? ''}\n`,
    );
  }
  return 0;
}

/** Receives webhooks on loopback, verifies each and prints it; for trying them out. */
async function listen(values: Values, out: NodeJS.WritableStream): Promise<number> {
  const port = optionalInteger(values.port, '--port');
  if (port === undefined) throw new UsageError('listen needs --port');
  const secret = values.secret ?? process.env.NOK_WEBHOOK_SECRET;
  if (!secret) throw new UsageError('listen needs --secret (or NOK_WEBHOOK_SECRET)');
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': header(request.headers['webhook-id']),
        'webhook-timestamp': header(request.headers['webhook-timestamp']),
        'webhook-signature': header(request.headers['webhook-signature']),
      };
      verifyWebhook(body, headers, secret).then(
        (event) => {
          out.write(
            values.json
              ? `${JSON.stringify({ id: headers['webhook-id'], event })}\n`
              : `${headers['webhook-id']}  ${JSON.stringify(event)}\n`,
          );
          response.writeHead(204).end();
        },
        (error: unknown) => {
          process.exitCode = 4;
          const why = error instanceof WebhookVerificationError ? error.message : String(error);
          process.stderr.write(`nok-sms: refused a webhook: ${why}\n`);
          response.writeHead(400).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.stderr.write(`nok-sms: listening for webhooks on http://127.0.0.1:${port}/\n`);
  await new Promise((resolve) => server.on('close', resolve));
  return 0;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`nok-sms: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 3;
  },
);
