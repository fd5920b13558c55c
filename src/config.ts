import { z } from 'zod';
import type { LogFormatSetting } from './logging/create-logger.js';
import { ExplainedError } from './domain/explained-error.js';
import { parseSmscOptions } from './smsc/parse-smsc-options.js';
import type { SmscSettings } from './smsc/smsc-options.js';

/**
 * Every setting Nok reads, from environment variables prefixed `NOK_`. This is the only module
 * that reads `process.env`; everything else receives the frozen result.
 */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max);
const port = () => integer(0, 65535);

/** NOK_SMSC_OPTIONS: JSON checked against the simulator's own settings (parseSmscOptions). */
const smscOptions = z
  .string()
  .default('{"preset":"demo"}')
  .transform((text, ctx): SmscSettings => {
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
  )
  .default('Nok <nok@localhost>');

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

const schema = z
  .object({
    NOK_DATABASE_URL: z.string().min(1).default('./data/nok.db'),
    NOK_HOST: z.string().min(1).default('127.0.0.1'),
    NOK_PORT: port().default(8080),
    NOK_OPS_HOST: z.string().min(1).default('127.0.0.1'),
    NOK_OPS_PORT: port().default(9464),
    NOK_LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    NOK_LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
    NOK_RATE_LIMIT_REQUESTS: integer(1).default(6000),
    NOK_RATE_LIMIT_WINDOW_SECONDS: integer(1).default(60),
    NOK_SEND_BODY_LIMIT_MB: integer(1).default(128),
    NOK_SCHEDULER_INTERVAL_MS: integer(10).default(1000),
    NOK_MATERIALISE_CHUNK_SIZE: integer(100).default(20000),
    NOK_DEMO_CREDITS: integer(0).default(100000),
    NOK_CARRIERS_FILE: z.string().min(1).optional(),
    NOK_SMSC_HOST: z.string().min(1).default('127.0.0.1'),
    NOK_SMSC_PORT: port().default(2775),
    NOK_SMSC_OPTIONS: smscOptions,
    NOK_DISPATCH_CHUNK_SIZE: integer(1, 100_000).default(1000),
    NOK_DISPATCH_MAX_IN_FLIGHT: integer(0).default(0),
    NOK_RETRY_WINDOW_SECONDS: integer(1).default(3600),
    // Leases are renewed every third of their length, at most once a second: 3 s at least.
    NOK_DISPATCH_LEASE_MS: integer(3_000, 3_600_000).default(60_000),
    NOK_DISPATCH_IDLE_POLL_MS: integer(10, 60_000).default(250),
    NOK_DISPATCH_RETRY_INITIAL_DELAY_MS: integer(10, 3_600_000).default(1_000),
    NOK_DISPATCH_RETRY_MAX_DELAY_MS: integer(10, 3_600_000).default(60_000),
    NOK_DISPATCH_SWEEP_INTERVAL_MS: integer(10, 600_000).default(1_000),
    NOK_DISPATCH_DRAIN_MS: integer(0, 600_000).default(10_000),
    NOK_DISPATCH_COMMIT_BATCH: integer(1, 100_000).default(1_000),
    NOK_DISPATCH_COMMIT_DELAY_MS: integer(0, 1_000).default(1),
    NOK_DISPATCH_COMMIT_RETRY_MS: integer(10, 60_000).default(500),
    NOK_DISPATCH_RECEIPT_COMMITS: integer(1, 16).default(2),
    NOK_METRICS: z.enum(['on', 'off']).default('on'),
    NOK_TRUST_PROXY: z.enum(['on', 'off']).default('off'),
    NOK_SENDER_DOCUMENT_MAX_BYTES: integer(1024, 100 * 1024 * 1024).default(10 * 1024 * 1024),
    NOK_SMTP_URL: smtpUrl,
    NOK_MAIL_FROM: mailFrom,
    NOK_PUBLIC_URL: publicUrl,
    NOK_INVITATION_TTL_HOURS: integer(1, 90 * 24).default(7 * 24),
    NOK_PASSWORD_RESET_TTL_MINUTES: integer(5, 24 * 60).default(60),
    // A console session ends after this long without a request (1 minute to 1 day) …
    NOK_SESSION_IDLE_MINUTES: integer(1, 24 * 60).default(30),
    // … and this long after sign-in however busy it is (1 hour to 30 days).
    NOK_SESSION_MAX_HOURS: integer(1, 30 * 24).default(12),
  })
  .superRefine((e, ctx) => {
    if (e.NOK_SESSION_IDLE_MINUTES > e.NOK_SESSION_MAX_HOURS * 60) {
      ctx.addIssue({
        code: 'custom',
        path: ['NOK_SESSION_IDLE_MINUTES'],
        message: `must be at most NOK_SESSION_MAX_HOURS (${e.NOK_SESSION_MAX_HOURS} hours) in minutes`,
      });
    }
    if (e.NOK_DISPATCH_RETRY_MAX_DELAY_MS < e.NOK_DISPATCH_RETRY_INITIAL_DELAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['NOK_DISPATCH_RETRY_MAX_DELAY_MS'],
        message: `must be at least NOK_DISPATCH_RETRY_INITIAL_DELAY_MS (${e.NOK_DISPATCH_RETRY_INITIAL_DELAY_MS})`,
      });
    }
  });

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** How a dispatcher paces itself; see DispatcherOptions for each field. */
export interface DispatchSettings {
  readonly chunkSize: number;
  /** 0: the carriers' binds × windows. */
  readonly maxInFlight: number;
  readonly retryWindowMs: number;
  readonly leaseMs: number;
  readonly idlePollMs: number;
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly sweepIntervalMs: number;
  /** How long a stopping dispatcher waits for its parts in flight, and binds for their unbind. */
  readonly drainMs: number;
  /** Group commits of submit outcomes and receipts. */
  readonly commit: {
    readonly maxBatch: number;
    readonly delayMs: number;
    readonly retryDelayMs: number;
    /** Receipt batches written at once. */
    readonly receiptConcurrency: number;
  };
}

export interface Config {
  readonly databaseUrl: string;
  /** Where the API listens. */
  readonly host: string;
  readonly port: number;
  /** Where the operator endpoints (/health, /metrics, /status) listen, apart from the API. */
  readonly ops: { readonly host: string; readonly port: number };
  readonly logLevel: LogLevel;
  /** `auto`: readable lines on a terminal, JSON lines otherwise (logFormatFor). */
  readonly logFormat: LogFormatSetting;
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number };
  readonly sendBodyLimitBytes: number;
  readonly schedulerIntervalMs: number;
  readonly materialiseChunkSize: number;
  readonly demoCredits: number;
  /** The carrier file; unset, `nok start` delivers to its built-in SMSC. */
  readonly carriersFile: string | undefined;
  readonly smsc: {
    readonly host: string;
    readonly port: number;
    readonly settings: SmscSettings;
  };
  readonly dispatch: DispatchSettings;
  /** Off: no metrics are kept and the ops listener has no /metrics. */
  readonly metrics: boolean;
  /**
   * Nok runs behind one reverse proxy that terminates TLS: believe its X-Forwarded-Proto,
   * X-Forwarded-For and X-Forwarded-Host (their last entry, the one it added).
   */
  readonly trustProxy: boolean;
  /** The largest document a sender-name request may carry, each. */
  readonly senderDocumentMaxBytes: number;
  readonly mail: {
    /** Unset: mail is written to the log instead (a demo). */
    readonly smtpUrl: string | undefined;
    readonly from: string;
  };
  /**
   * The base of links in mail (NOK_PUBLIC_URL; default http://NOK_HOST:NOK_PORT). Never taken
   * from a request's Host header, which whoever sends the request writes.
   */
  readonly publicUrl: string;
  /**
   * The console's origin when NOK_PUBLIC_URL names it: a state change must come from there
   * (its Origin), whatever Host it names. Undefined: the request's own protocol and Host.
   */
  readonly consoleOrigin: string | undefined;
  /** How long mailed links stay good. */
  readonly linkLifetimes: { readonly invitationMs: number; readonly passwordResetMs: number };
  /** Console sessions end when idle this long, and this long after sign-in whatever happens. */
  readonly sessionLimits: { readonly idleMs: number; readonly absoluteMs: number };
}

/** http://host:port of the API, as a browser on this machine reaches it. */
export function defaultPublicUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ExplainedError(
      `Invalid settings; fix these environment variables: ${problems.join('; ')}`,
    );
  }
  const e = parsed.data;
  return Object.freeze({
    databaseUrl: e.NOK_DATABASE_URL,
    host: e.NOK_HOST,
    port: e.NOK_PORT,
    ops: Object.freeze({ host: e.NOK_OPS_HOST, port: e.NOK_OPS_PORT }),
    logLevel: e.NOK_LOG_LEVEL,
    logFormat: e.NOK_LOG_FORMAT,
    rateLimit: Object.freeze({
      requests: e.NOK_RATE_LIMIT_REQUESTS,
      windowSeconds: e.NOK_RATE_LIMIT_WINDOW_SECONDS,
    }),
    sendBodyLimitBytes: e.NOK_SEND_BODY_LIMIT_MB * 1024 * 1024,
    schedulerIntervalMs: e.NOK_SCHEDULER_INTERVAL_MS,
    materialiseChunkSize: e.NOK_MATERIALISE_CHUNK_SIZE,
    demoCredits: e.NOK_DEMO_CREDITS,
    carriersFile: e.NOK_CARRIERS_FILE,
    smsc: Object.freeze({
      host: e.NOK_SMSC_HOST,
      port: e.NOK_SMSC_PORT,
      settings: Object.freeze(e.NOK_SMSC_OPTIONS),
    }),
    dispatch: Object.freeze({
      chunkSize: e.NOK_DISPATCH_CHUNK_SIZE,
      maxInFlight: e.NOK_DISPATCH_MAX_IN_FLIGHT,
      retryWindowMs: e.NOK_RETRY_WINDOW_SECONDS * 1000,
      leaseMs: e.NOK_DISPATCH_LEASE_MS,
      idlePollMs: e.NOK_DISPATCH_IDLE_POLL_MS,
      retryInitialDelayMs: e.NOK_DISPATCH_RETRY_INITIAL_DELAY_MS,
      retryMaxDelayMs: e.NOK_DISPATCH_RETRY_MAX_DELAY_MS,
      sweepIntervalMs: e.NOK_DISPATCH_SWEEP_INTERVAL_MS,
      drainMs: e.NOK_DISPATCH_DRAIN_MS,
      commit: Object.freeze({
        maxBatch: e.NOK_DISPATCH_COMMIT_BATCH,
        delayMs: e.NOK_DISPATCH_COMMIT_DELAY_MS,
        retryDelayMs: e.NOK_DISPATCH_COMMIT_RETRY_MS,
        receiptConcurrency: e.NOK_DISPATCH_RECEIPT_COMMITS,
      }),
    }),
    metrics: e.NOK_METRICS === 'on',
    trustProxy: e.NOK_TRUST_PROXY === 'on',
    senderDocumentMaxBytes: e.NOK_SENDER_DOCUMENT_MAX_BYTES,
    mail: Object.freeze({ smtpUrl: e.NOK_SMTP_URL, from: e.NOK_MAIL_FROM }),
    publicUrl: e.NOK_PUBLIC_URL ?? defaultPublicUrl(e.NOK_HOST, e.NOK_PORT),
    consoleOrigin: e.NOK_PUBLIC_URL === undefined ? undefined : new URL(e.NOK_PUBLIC_URL).origin,
    linkLifetimes: Object.freeze({
      invitationMs: e.NOK_INVITATION_TTL_HOURS * 3_600_000,
      passwordResetMs: e.NOK_PASSWORD_RESET_TTL_MINUTES * 60_000,
    }),
    sessionLimits: Object.freeze({
      idleMs: e.NOK_SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: e.NOK_SESSION_MAX_HOURS * 3_600_000,
    }),
  });
}
