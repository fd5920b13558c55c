import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './api/app.js';
import {
  loadCarrierConfig,
  parseCarrierConfig,
  type CarrierConfig,
} from './carriers/carrier-config.js';
import { createCarriers, type Carriers } from './carriers/start-carriers.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { Store } from './domain/ports.js';
import { startDispatcher, type Dispatcher } from './dispatcher/dispatcher.js';
import { createLogger } from './logging/create-logger.js';
import { Metrics } from './metrics/metrics.js';
import { buildOpsApp, opsRoutes, type OpsDeps } from './ops/ops-routes.js';
import { startBackgroundJobs, type BackgroundJobs } from './scheduler/background-jobs.js';
import { startSmsc, type RunningSmsc } from './smsc/start-smsc.js';
import type { Database } from './storage/engine.js';
import { migrate } from './storage/migrate.js';
import { openDatabase } from './storage/open-database.js';
import { createStore } from './storage/store.js';

export interface Roles {
  readonly api: boolean;
  readonly scheduler: boolean;
  /** Delivers to the carriers of NOK_CARRIERS_FILE, or to the built-in SMSC when it runs here. */
  readonly dispatcher?: boolean;
  /** The built-in SMSC simulator, on NOK_SMSC_HOST:NOK_SMSC_PORT. */
  readonly smsc?: boolean;
}

export interface Runtime {
  readonly database: Database;
  readonly store: Store;
  readonly app?: FastifyInstance;
  readonly jobs?: BackgroundJobs;
  readonly dispatcher?: Dispatcher;
  readonly carriers?: Carriers;
  readonly smsc?: RunningSmsc;
  readonly metrics?: Metrics;
  /** The address the API (or, without it, the ops endpoints) listens on. */
  readonly url?: string;
  stop(): Promise<void>;
}

export { createLogger };

/** Opens the store, migrates it, and starts the roles asked for, in one process. */
export async function startRuntime(
  config: Config,
  roles: Roles,
  options: { logger?: Logger; clock?: Clock; listen?: boolean; carriers?: CarrierConfig } = {},
): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config.databaseUrl, {
    onIdleConnectionError: (error) =>
      logger.warn({ err: error }, 'an idle database connection broke; the pool replaces it'),
  });
  await migrate(database, clock.now());
  const store = createStore(database.db);
  const metrics = config.metrics ? new Metrics() : undefined;

  const smsc = roles.smsc
    ? await startSmsc({
        ...config.smsc.settings,
        host: config.smsc.host,
        port: config.smsc.port,
        logger: logger.child({ role: 'smsc' }),
      })
    : undefined;
  if (smsc) logger.info({ host: smsc.host, port: smsc.port }, 'built-in SMSC listening');

  let dispatcher: Dispatcher | undefined;
  let carriers: Carriers | undefined;
  if (roles.dispatcher) {
    const carrierConfig =
      options.carriers ??
      (config.carriersFile
        ? await loadCarrierConfig(config.carriersFile)
        : smsc
          ? builtInCarrier(smsc)
          : null);
    if (!carrierConfig) {
      throw new Error(
        'The dispatcher has no carrier: set NOK_CARRIERS_FILE (see docs/carriers.example.json)',
      );
    }
    carriers = createCarriers(carrierConfig, {
      logger: logger.child({ role: 'dispatcher' }),
      onReceipt: (report) => dispatcher!.recordReceipt(report),
    });
    dispatcher = startDispatcher({
      delivery: database.delivery,
      route: carriers.route,
      clock,
      logger: logger.child({ role: 'dispatcher' }),
      owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
      chunkSize: config.dispatch.chunkSize,
      leaseMs: config.dispatch.leaseMs,
      maxInFlight: config.dispatch.maxInFlight || Math.max(100, carriers.windowCapacity),
      idlePollMs: config.dispatch.idlePollMs,
      retry: {
        initialDelayMs: config.dispatch.retryInitialDelayMs,
        maxDelayMs: config.dispatch.retryMaxDelayMs,
        windowMs: config.dispatch.retryWindowMs,
      },
      receiptWindowsMs: carriers.receiptWindowsMs,
      defaultReceiptWindowMs: Math.max(...carriers.receiptWindowsMs.values()),
      sweepIntervalMs: config.dispatch.sweepIntervalMs,
      commit: config.dispatch.commit,
      observer: metrics && {
        submitted(carrier, answer) {
          if (answer.kind === 'accepted') metrics.submits.inc({ carrier });
          else metrics.submitErrors.inc({ carrier, code: answer.code });
        },
        receipts(applied) {
          for (const receipt of applied) {
            metrics.receipts.inc({ carrier: receipt.carrier, status: receipt.outcome });
            metrics.receiptLatency.observe({ carrier: receipt.carrier }, receipt.latencyMs / 1000);
          }
        },
      },
    });
    carriers.start();
  }
  metrics?.observe({
    carriers: () => carriers?.status() ?? [],
    queueDepth: () => database.delivery.queueDepth(),
  });

  const jobs = roles.scheduler
    ? startBackgroundJobs({
        store,
        engine: database.engine,
        clock,
        logger,
        intervalMs: config.schedulerIntervalMs,
        chunkSize: config.materialiseChunkSize,
        onWork: () => dispatcher?.wake(),
      })
    : undefined;

  const ops: OpsDeps = {
    metrics,
    status: async () => ({
      roles,
      carriers: carriers?.status() ?? [],
      dispatcher: dispatcher?.stats() ?? null,
      queueDepth: await database.delivery.queueDepth(),
      smsc: smsc ? { host: smsc.host, port: smsc.port } : null,
    }),
  };
  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (roles.api) {
    app = await buildApp({
      store,
      clock,
      logger,
      rateLimit: config.rateLimit,
      sendBodyLimitBytes: config.sendBodyLimitBytes,
      onAccepted: (charged) => {
        jobs?.wake();
        metrics?.acceptedRecipients.inc({ engine: database.engine.name }, charged);
      },
      ops: (api) => opsRoutes(api, ops),
    });
  } else if (roles.dispatcher) {
    app = await buildOpsApp(logger, ops);
  }
  if (app && options.listen !== false)
    url = await app.listen({ host: config.host, port: config.port });

  return {
    database,
    store,
    app,
    jobs,
    dispatcher,
    carriers,
    smsc,
    metrics,
    url,
    async stop() {
      await app?.close();
      await jobs?.stop();
      await dispatcher?.stop(config.dispatch.drainMs);
      await carriers?.stop(config.dispatch.drainMs);
      await dispatcher?.stopReceipts();
      await smsc?.close();
      await database.close();
    },
  };
}

/** `nok start` without a carrier file: the built-in SMSC is the one carrier. */
function builtInCarrier(smsc: RunningSmsc): CarrierConfig {
  return parseCarrierConfig({
    carriers: [
      {
        name: 'builtin-smsc',
        host: smsc.host,
        port: smsc.port,
        systemId: 'nok',
        password: 'nok',
        binds: 2,
        windowSize: 100,
        submitsPerSecond: 50_000,
        // The demo SMSC answers within seconds; a missing receipt shows as timeout soon.
        receiptWindowMs: 10_000,
      },
    ],
  });
}
