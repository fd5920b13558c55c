import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp } from './api/app.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { Store } from './domain/ports.js';
import { startBackgroundJobs, type BackgroundJobs } from './scheduler/background-jobs.js';
import type { Database } from './storage/engine.js';
import { migrate } from './storage/migrate.js';
import { openDatabase } from './storage/open-database.js';
import { createStore } from './storage/store.js';

export interface Roles {
  readonly api: boolean;
  readonly scheduler: boolean;
}

export interface Runtime {
  readonly database: Database;
  readonly store: Store;
  readonly app?: FastifyInstance;
  readonly jobs?: BackgroundJobs;
  /** The address the API listens on, when it does. */
  readonly url?: string;
  stop(): Promise<void>;
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel });
}

/** Opens the store, migrates it, and starts the roles asked for, in one process. */
export async function startRuntime(
  config: Config,
  roles: Roles,
  options: { logger?: Logger; clock?: Clock; listen?: boolean } = {},
): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config.databaseUrl, {
    onIdleConnectionError: (error) =>
      logger.warn({ err: error }, 'an idle database connection broke; the pool replaces it'),
  });
  await migrate(database, clock.now());
  const store = createStore(database.db);

  const jobs = roles.scheduler
    ? startBackgroundJobs({
        store,
        engine: database.engine,
        clock,
        logger,
        intervalMs: config.schedulerIntervalMs,
        chunkSize: config.materialiseChunkSize,
      })
    : undefined;

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (roles.api) {
    app = await buildApp({
      store,
      clock,
      logger,
      rateLimit: config.rateLimit,
      sendBodyLimitBytes: config.sendBodyLimitBytes,
      onAccepted: () => jobs?.wake(),
    });
    if (options.listen !== false) url = await app.listen({ host: config.host, port: config.port });
  }

  return {
    database,
    store,
    app,
    jobs,
    url,
    async stop() {
      await app?.close();
      await jobs?.stop();
      await database.close();
    },
  };
}
