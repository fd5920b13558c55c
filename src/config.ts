import { z } from 'zod';
import type { LogFormatSetting } from './logging/create-logger.js';
import { ExplainedError } from './domain/explained-error.js';
import type { WebhookSettings } from './domain/webhooks/webhook-settings.js';
import { SETTINGS, TOOLING_VARIABLES, type Setting } from './settings.js';
import type { SmscSettings } from './smsc/smsc-options.js';

/**
 * Every setting Nok reads, from environment variables prefixed `NOK_`. This is the only module
 * that reads `process.env`; everything else receives the frozen result.
 */

type SettingName = keyof typeof SETTINGS;
type Shape = { [Name in SettingName]: (typeof SETTINGS)[Name]['schema'] };

const schema = z
  .object(
    Object.fromEntries(
      Object.entries(SETTINGS).map(([name, { schema }]) => [name, schema]),
    ) as Shape,
  )
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

/** The text of each setting that has one when unset. */
const DEFAULTS: Record<string, string> = Object.fromEntries(
  Object.entries(SETTINGS).flatMap(([name, definition]: [string, Setting<z.ZodType>]) =>
    definition.default === undefined ? [] : [[name, definition.default]],
  ),
);

/**
 * The NOK_… variables of `env` that are neither a setting nor tooling's, each with the known
 * name closest to it: a misspelt setting would otherwise be silently ignored.
 */
export function unknownSettings(env: NodeJS.ProcessEnv): { name: string; closest: string }[] {
  const settings = Object.keys(SETTINGS);
  const tooling = Object.keys(TOOLING_VARIABLES);
  const known = (name: string) =>
    settings.includes(name) ||
    tooling.some((pattern) =>
      pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
    );
  return Object.keys(env)
    .filter((name) => name.startsWith('NOK_') && !known(name))
    .sort()
    .map((name) => ({
      name,
      closest: closestName(name, [...settings, ...tooling.filter((n) => !n.endsWith('*'))]),
    }));
}

function closestName(name: string, candidates: readonly string[]): string {
  let best = candidates[0] ?? '';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance: the fewest characters inserted, deleted or replaced to turn a into b. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

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
  /** At stop, how long HTTP requests and webhook posts in flight may take (NOK_DRAIN_MS). */
  readonly drainMs: number;
  /** PostgreSQL: the direct connection for LISTEN (NOK_DATABASE_DIRECT_URL, else databaseUrl). */
  readonly databaseDirectUrl: string;
  /** Where the API listens. */
  readonly host: string;
  readonly port: number;
  /** Where the operator endpoints (/health, /metrics, /status) listen, apart from the API. */
  readonly ops: { readonly host: string; readonly port: number };
  readonly logLevel: LogLevel;
  /** `auto`: readable lines on a terminal, JSON lines otherwise (logFormatFor). */
  readonly logFormat: LogFormatSetting;
  readonly rateLimit: {
    readonly requests: number;
    readonly windowSeconds: number;
    readonly failedAuthentications: number;
  };
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
  readonly webhooks: WebhookSettings;
}

/** http://host:port of the API, as a browser on this machine reaches it. */
export function defaultPublicUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse({ ...DEFAULTS, ...env });
  const problems = [
    ...unknownSettings(env).map(
      ({ name, closest }) =>
        `${name}: not a Nok setting; did you mean ${closest}? (docs/configuration.md lists them)`,
    ),
    ...(parsed.success ? [] : parsed.error.issues).map((i) => `${i.path.join('.')}: ${i.message}`),
  ];
  if (!parsed.success || problems.length > 0) {
    throw new ExplainedError(
      `Invalid settings; fix these environment variables: ${problems.join('; ')}`,
    );
  }
  const e = parsed.data;
  return Object.freeze({
    databaseUrl: e.NOK_DATABASE_URL,
    drainMs: e.NOK_DRAIN_MS,
    databaseDirectUrl: e.NOK_DATABASE_DIRECT_URL ?? e.NOK_DATABASE_URL,
    host: e.NOK_HOST,
    port: e.NOK_PORT,
    ops: Object.freeze({ host: e.NOK_OPS_HOST, port: e.NOK_OPS_PORT }),
    logLevel: e.NOK_LOG_LEVEL,
    logFormat: e.NOK_LOG_FORMAT,
    rateLimit: Object.freeze({
      requests: e.NOK_RATE_LIMIT_REQUESTS,
      windowSeconds: e.NOK_RATE_LIMIT_WINDOW_SECONDS,
      failedAuthentications: e.NOK_AUTH_FAILURE_LIMIT,
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
    webhooks: Object.freeze({
      deliver: e.NOK_WEBHOOKS === 'on',
      batchMax: e.NOK_WEBHOOK_BATCH_MAX,
      batchWaitMs: e.NOK_WEBHOOK_BATCH_WAIT_MS,
      timeoutMs: e.NOK_WEBHOOK_TIMEOUT_MS,
      retryWindowMs: e.NOK_WEBHOOK_RETRY_WINDOW_HOURS * 3_600_000,
      secretOverlapMs: e.NOK_WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
      concurrency: e.NOK_WEBHOOK_CONCURRENCY,
      allowPrivateTargets: e.NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    }),
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
