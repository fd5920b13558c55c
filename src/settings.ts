// Every setting Nok reads from its environment, each with its schema, default and description:
// config.ts reads them into a Config, scripts/configuration-reference.ts writes
// docs/configuration.md from them.
import { z } from 'zod';
import {
  DEFAULT_DOCUMENT_MAX_BYTES,
  DOCUMENT_MAX_BYTES_RANGE,
} from './domain/senders/sender-request-rules.js';
import { DEFAULT_SESSION_LIMITS } from './domain/users/sessions.js';
import { parseSmscOptions } from './smsc/parse-smsc-options.js';
import type { SmscSettings } from './smsc/smsc-options.js';

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max);
const port = () => integer(0, 65535);

/** NOK_SMSC_OPTIONS: JSON checked against the simulator's own settings (parseSmscOptions). */
const smscOptions = z.string().transform((text, ctx): SmscSettings => {
  try {
    const settings = parseSmscOptions(JSON.parse(text));
    for (const field of ['host', 'port'] as const) {
      if (settings[field] !== undefined) {
        throw new Error(`${field} is set by NOK_SMSC_${field.toUpperCase()}, not here`);
      }
    }
    return settings;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** NOK_SMTP_URL: smtp:// or smtps://, with a host. Its text is never echoed (it may hold a password). */
const smtpUrl = z
  .string()
  .min(1)
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be smtp://[user:password@]host[:port] or smtps://…')
  .optional();

/** NOK_MAIL_FROM: `address@host` or `Name <address@host>`. */
const mailFrom = z
  .string()
  .trim()
  .regex(
    /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
    'must be an address (nok@example.com) or Name <nok@example.com>',
  );

/** NOK_PUBLIC_URL: where people reach the console, for links in mail (http or https, no query). */
const publicUrl = z
  .string()
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL such as https://sms.example.com, without query or fragment')
  .transform((text) => text.replace(/\/+$/, ''))
  .optional();

/** One setting: how its text is read, its text when unset, and what it means, for the reference. */
export interface Setting<S extends z.ZodType> {
  readonly schema: S;
  /** The text taken when the variable is unset; none: the setting stays undefined. */
  readonly default?: string;
  /** What the reference shows as the default when it is not a fixed text. */
  readonly defaultShown?: string;
  /** One or two sentences of Markdown for docs/configuration.md (links relative to docs/). */
  readonly description: string;
}
const setting = <S extends z.ZodType>(definition: Setting<S>): Setting<S> => definition;

/**
 * Every setting, in the order docs/configuration.md lists them (`npm run docs:config` writes it
 * from here; a test fails when the file differs). A new setting is a new entry with its
 * description; nothing else lists them.
 */
export const SETTINGS = {
  NOK_DATABASE_URL: setting({
    schema: z.string().min(1),
    default: './data/nok.db',
    description:
      'Where the data lives. A file path selects SQLite (the directory is created); `postgres://user@host:port/db` (or `postgresql://`) selects PostgreSQL.',
  }),
  NOK_DATABASE_DIRECT_URL: setting({
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
      .optional(),
    description:
      "PostgreSQL: a connection that does not go through a pooler in transaction mode, for what needs a session of its own: listening for the other processes' wake-ups (LISTEN). Unset, NOK_DATABASE_URL is used.",
  }),
  NOK_HOST: setting({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Address the API listens on. `0.0.0.0` to accept connections from other machines.',
  }),
  NOK_PORT: setting({
    schema: port(),
    default: '8080',
    description: 'Port the API listens on; `0` picks a free port.',
  }),
  NOK_OPS_HOST: setting({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description:
      'Address of the operator listener: `/health`, `/metrics` and `/status`, served by every role but `nok smsc`, with no API key. Keep it on loopback or a monitoring network.',
  }),
  NOK_OPS_PORT: setting({
    schema: port(),
    default: '9464',
    description:
      'Port of the operator listener; `0` picks a free port. Two role processes on one machine need two ports.',
  }),
  NOK_LOG_LEVEL: setting({
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description:
      'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs go to stdout.',
  }),
  NOK_LOG_FORMAT: setting({
    schema: z.enum(['auto', 'pretty', 'json']),
    default: 'auto',
    description:
      '`json`: one JSON object per line; `pretty`: readable lines (time, level, message, `key=value`); `auto`: `pretty` when stdout is a terminal, `json` otherwise.',
  }),
  NOK_RATE_LIMIT_REQUESTS: setting({
    schema: integer(1),
    default: '6000',
    description:
      "Requests each API key may make per window. An account's own `rate_limit_requests` overrides it.",
  }),
  NOK_RATE_LIMIT_WINDOW_SECONDS: setting({
    schema: integer(1),
    default: '60',
    description: 'Length of the rate-limit window, in seconds.',
  }),
  NOK_AUTH_FAILURE_LIMIT: setting({
    schema: integer(1),
    default: '30',
    description:
      'Failed API-key authentications one client address may make per rate-limit window; past them it is answered 429 with `Retry-After` before any key it sends is looked up.',
  }),
  NOK_SEND_BODY_LIMIT_MB: setting({
    schema: integer(1),
    default: '128',
    description:
      'Largest body accepted by send and preview-cost, in MiB. 2,000,000 numbers take about 30 MB.',
  }),
  NOK_SCHEDULER_INTERVAL_MS: setting({
    schema: integer(10),
    default: '1000',
    description:
      'How often the scheduler looks for due scheduled messages and recipient lists to materialise. An accepted send also wakes it at once: in the same process, and on PostgreSQL in any process (LISTEN/NOTIFY).',
  }),
  NOK_MATERIALISE_CHUNK_SIZE: setting({
    schema: integer(100),
    default: '20000',
    description: 'Recipient rows written per materialisation transaction (minimum 100).',
  }),
  NOK_DEMO_CREDITS: setting({
    schema: integer(0),
    default: '100000',
    description: 'Credits given to the demo account that `nok start` creates on an empty store.',
  }),
  NOK_CARRIERS_FILE: setting({
    schema: z.string().min(1).optional(),
    description:
      'The carrier file (JSON, [carriers.example.json](carriers.example.json)). Unset, `nok start` delivers to its built-in SMSC.',
  }),
  NOK_SMSC_HOST: setting({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description:
      'Where the built-in SMSC listens (`nok smsc`, and `nok start` without a carrier file).',
  }),
  NOK_SMSC_PORT: setting({
    schema: port(),
    default: '2775',
    description: 'Its SMPP port; `0` picks a free port.',
  }),
  NOK_SMSC_OPTIONS: setting({
    schema: smscOptions,
    default: '{"preset":"demo"}',
    description:
      'Its behaviour as JSON: a preset (`happy`, `demo`, `throttling`, `no-receipt`, `bind-refused`, `slow`, `drop`) and the fields of `SmscSettings` in `src/smsc/smsc-options.ts`, checked at start. Not `host`/`port` (the two above), nor the test hooks (`firstMessageId`, `recordSubmits`, `receiptBeforeResponse`), which only code passes.',
  }),
  NOK_DISPATCH_CHUNK_SIZE: setting({
    schema: integer(1, 100_000),
    default: '1000',
    description: 'Recipients per dispatch chunk, the unit a dispatcher leases (1 to 100,000).',
  }),
  NOK_DISPATCH_MAX_IN_FLIGHT: setting({
    schema: integer(0),
    default: '0',
    description:
      "Parts a dispatcher has submitted without their outcome stored, at most; `0` means the carriers' binds × windows. A crash resends at most these.",
  }),
  NOK_RETRY_WINDOW_SECONDS: setting({
    schema: integer(1),
    default: '3600',
    description:
      'How long a part refused for now (throttled, queue full, no bind up) is retried before its recipient is `expired`.',
  }),
  NOK_DISPATCH_RETRY_INITIAL_DELAY_MS: setting({
    schema: integer(10, 3_600_000),
    default: '1000',
    description:
      'Wait before a part refused for now is tried again the first time (10 to 3,600,000); later waits double, up to the next setting.',
  }),
  NOK_DISPATCH_RETRY_MAX_DELAY_MS: setting({
    schema: integer(10, 3_600_000),
    default: '60000',
    description:
      'Longest wait between two tries of a part (10 to 3,600,000, at least the initial delay).',
  }),
  NOK_DISPATCH_LEASE_MS: setting({
    // Leases are renewed every third of their length, at most once a second: 3 s at least.
    schema: integer(3_000, 3_600_000),
    default: '60000',
    description:
      "How long a dispatcher holds a chunk without renewing its lease (3,000 to 3,600,000; renewed every third): a dead dispatcher's chunks are taken over after this.",
  }),
  NOK_DISPATCH_IDLE_POLL_MS: setting({
    schema: integer(10, 60_000),
    default: '250',
    description:
      'How often an idle dispatcher looks for work (10 to 60,000). Work materialised wakes it at once: in the same process, and on PostgreSQL in any process (LISTEN/NOTIFY).',
  }),
  NOK_DISPATCH_SWEEP_INTERVAL_MS: setting({
    schema: integer(10, 600_000),
    default: '1000',
    description:
      'How often a dispatcher times out recipients whose receipt is overdue and matches early receipts (10 to 600,000).',
  }),
  NOK_DISPATCH_DRAIN_MS: setting({
    schema: integer(0, 600_000),
    default: '10000',
    description:
      'At stop, how long a dispatcher waits for its parts in flight, and the binds for their unbind (0 to 600,000).',
  }),
  NOK_DRAIN_MS: setting({
    schema: integer(0, 600_000),
    default: '10000',
    description:
      "At stop, how long the API and the operator listener wait for requests in flight, and the webhook deliverer for its posts (0 to 600,000). Past it their connections are cut: a client's request that never ends cannot keep a process from stopping. A dispatcher's parts have NOK_DISPATCH_DRAIN_MS.",
  }),
  NOK_DISPATCH_COMMIT_BATCH: setting({
    schema: integer(1, 100_000),
    default: '1000',
    description: 'Submit outcomes or receipts stored per group commit, at most (1 to 100,000).',
  }),
  NOK_DISPATCH_COMMIT_DELAY_MS: setting({
    schema: integer(0, 1_000),
    default: '1',
    description:
      'How long the first outcome or receipt of a group commit waits for company (0 to 1,000).',
  }),
  NOK_DISPATCH_COMMIT_RETRY_MS: setting({
    schema: integer(10, 60_000),
    default: '500',
    description:
      'After a failed group commit, the wait before the same items are written again (10 to 60,000).',
  }),
  NOK_DISPATCH_RECEIPT_COMMITS: setting({
    schema: integer(1, 16),
    default: '2',
    description:
      "Receipt group commits written at once (1 to 16): a second overlaps its round trips with the first's.",
  }),
  NOK_METRICS: setting({
    schema: z.enum(['on', 'off']),
    default: 'on',
    description:
      '`off`: no metrics are kept and the operator listener has no `/metrics` (it keeps `/health` and `/status`).',
  }),
  NOK_TRUST_PROXY: setting({
    schema: z.enum(['on', 'off']),
    default: 'off',
    description:
      '`on` when Nok sits behind one reverse proxy that terminates TLS: its `X-Forwarded-Proto`, `-For` and `-Host` (the last entry, the one it added) are believed, e.g. for HSTS.',
  }),
  NOK_SENDER_DOCUMENT_MAX_BYTES: setting({
    schema: integer(DOCUMENT_MAX_BYTES_RANGE.min, DOCUMENT_MAX_BYTES_RANGE.max),
    default: String(DEFAULT_DOCUMENT_MAX_BYTES),
    description:
      'The largest document a sender-name request may carry, each, in bytes (1,024 to 104,857,600; default 10 MiB). Documents are kept in the database.',
  }),
  NOK_SESSION_IDLE_MINUTES: setting({
    schema: integer(1, 24 * 60),
    default: String(DEFAULT_SESSION_LIMITS.idleMs / 60_000),
    description:
      'A console session ends after this many minutes without a request (1 to 1,440; at most `NOK_SESSION_MAX_HOURS`).',
  }),
  NOK_SESSION_MAX_HOURS: setting({
    schema: integer(1, 30 * 24),
    default: String(DEFAULT_SESSION_LIMITS.absoluteMs / 3_600_000),
    description:
      'A console session ends this many hours after sign-in, however busy it is (1 to 720).',
  }),
  NOK_SMTP_URL: setting({
    schema: smtpUrl,
    description:
      'Where mail goes (invitations, password resets, sender decisions): `smtp://[user:password@]host[:port]`, or `smtps://` for TLS from the first byte (`smtp://` upgrades with STARTTLS when offered). Unset: each mail is written to the log instead, links included, so a demo works; set it wherever real people are invited.',
  }),
  NOK_MAIL_FROM: setting({
    schema: mailFrom,
    default: 'Nok <nok@localhost>',
    description: 'The sender of that mail: `address@host` or `Name <address@host>`.',
  }),
  NOK_PUBLIC_URL: setting({
    schema: publicUrl,
    defaultShown: 'http://NOK_HOST:NOK_PORT',
    description:
      "Where people reach Nok, the base of every link in mail (e.g. `https://sms.example.com`). Never taken from a request's `Host` header. Set, the console accepts state changes only from its origin (unset: from the request's own protocol and `Host`).",
  }),
  NOK_INVITATION_TTL_HOURS: setting({
    schema: integer(1, 90 * 24),
    default: String(7 * 24),
    description:
      'How long an invitation link works (1 to 2,160 hours); re-sending mails a new one.',
  }),
  NOK_PASSWORD_RESET_TTL_MINUTES: setting({
    schema: integer(5, 24 * 60),
    default: '60',
    description: 'How long a password reset link works (5 to 1,440 minutes).',
  }),
  NOK_WEBHOOKS: setting({
    schema: z.enum(['on', 'off']),
    default: 'on',
    description:
      '`off`: this process does not deliver webhooks (docs/webhooks.md). Any number of processes may deliver them; each event is posted by one.',
  }),
  NOK_WEBHOOK_BATCH_MAX: setting({
    schema: integer(1, 1000),
    default: '100',
    description: 'Recipients of one message in one `recipients.final` event at most.',
  }),
  NOK_WEBHOOK_BATCH_WAIT_MS: setting({
    schema: integer(0, 60_000),
    default: '1000',
    description:
      'How long a recipient reaching a final status waits for others to join its `recipients.final` event: it is sent within this time of its change (plus the fan-out’s own turn).',
  }),
  NOK_WEBHOOK_TIMEOUT_MS: setting({
    schema: integer(100, 120_000),
    default: '15000',
    description:
      'How long one webhook request may take, from resolving the name to the end of the answer; longer is a failed attempt.',
  }),
  NOK_WEBHOOK_RETRY_WINDOW_HOURS: setting({
    schema: integer(1, 24 * 30),
    default: '72',
    description:
      'How long after an event its delivery is retried; an endpoint failing for this whole time is disabled and the account’s owners are emailed.',
  }),
  NOK_WEBHOOK_SECRET_OVERLAP_HOURS: setting({
    schema: integer(0, 24 * 30),
    default: '24',
    description:
      'After a secret is rotated, how long the old one still signs (each request then carries both signatures).',
  }),
  NOK_WEBHOOK_CONCURRENCY: setting({
    schema: integer(1, 1000),
    default: '16',
    description: 'Webhook requests one process has in flight at most.',
  }),
  NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS: setting({
    schema: z.enum(['true', 'false']),
    default: 'false',
    description:
      '`true`: webhook URLs may resolve to loopback, private, link-local or other non-public addresses (a private network, tests). Cloud metadata addresses stay refused.',
  }),
};

/**
 * Variables named NOK_… that the test, bench and dev tooling read and Nok never does, so that
 * Nok does not take them for misspelt settings. A name ending in `*` stands for every name it
 * begins.
 */
export const TOOLING_VARIABLES = {
  NOK_TEST_PG_URL:
    'The PostgreSQL database the test suites run against (each suite makes its own schema); unset, they run on SQLite alone, and with `CI=true` that fails the run.',
  NOK_DEV_PROXY_TARGET:
    'Where `npm run dev` sends `/console/api` (default `http://127.0.0.1:8080`).',
  'NOK_BENCH_*': "The benchmarks' settings, described in [bench/README.md](../bench/README.md).",
} as const;
