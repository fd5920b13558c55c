import { z } from 'zod';

/**
 * Every setting Nok reads, from environment variables prefixed `NOK_`. This is the only module
 * that reads `process.env`; everything else receives the frozen result.
 */
const integer = (min: number) => z.coerce.number().int().min(min);

const schema = z.object({
  NOK_DATABASE_URL: z.string().min(1).default('./data/nok.db'),
  NOK_HOST: z.string().min(1).default('127.0.0.1'),
  NOK_PORT: integer(0).max(65535).default(8080),
  NOK_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  NOK_RATE_LIMIT_REQUESTS: integer(1).default(6000),
  NOK_RATE_LIMIT_WINDOW_SECONDS: integer(1).default(60),
  NOK_SEND_BODY_LIMIT_MB: integer(1).default(128),
  NOK_SCHEDULER_INTERVAL_MS: integer(10).default(1000),
  NOK_MATERIALISE_CHUNK_SIZE: integer(100).default(20000),
  NOK_DEMO_CREDITS: integer(0).default(100000),
  NOK_CARRIERS_FILE: z.string().min(1).optional(),
  NOK_SMSC_HOST: z.string().min(1).default('127.0.0.1'),
  NOK_SMSC_PORT: integer(0).max(65535).default(2775),
  NOK_SMSC_OPTIONS: z.string().min(2).default('{"preset":"demo"}'),
  NOK_DISPATCH_CHUNK_SIZE: integer(1).max(100_000).default(1000),
  NOK_DISPATCH_MAX_IN_FLIGHT: integer(0).default(0),
  NOK_RETRY_WINDOW_SECONDS: integer(1).default(3600),
  NOK_METRICS: z.enum(['on', 'off']).default('on'),
});

export interface Config {
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number };
  readonly sendBodyLimitBytes: number;
  readonly schedulerIntervalMs: number;
  readonly materialiseChunkSize: number;
  readonly demoCredits: number;
  /** The carrier file; unset, `nok start` delivers to its built-in SMSC. */
  readonly carriersFile: string | undefined;
  readonly smsc: { readonly host: string; readonly port: number; readonly optionsJson: string };
  readonly dispatch: {
    readonly chunkSize: number;
    /** 0: the carriers' binds × windows. */
    readonly maxInFlight: number;
    readonly retryWindowMs: number;
  };
  readonly metrics: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid settings; fix these environment variables: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    databaseUrl: e.NOK_DATABASE_URL,
    host: e.NOK_HOST,
    port: e.NOK_PORT,
    logLevel: e.NOK_LOG_LEVEL,
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
      optionsJson: e.NOK_SMSC_OPTIONS,
    }),
    dispatch: Object.freeze({
      chunkSize: e.NOK_DISPATCH_CHUNK_SIZE,
      maxInFlight: e.NOK_DISPATCH_MAX_IN_FLIGHT,
      retryWindowMs: e.NOK_RETRY_WINDOW_SECONDS * 1000,
    }),
    metrics: e.NOK_METRICS === 'on',
  });
}
