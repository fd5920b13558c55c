import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './api/app.js';
import type { CarrierConfig } from './carriers/carrier-config.js';
import type { Carriers } from './carriers/start-carriers.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import { LifecycleEvents } from './domain/lifecycle-events.js';
import { systemTimers, type Timers } from './domain/timers.js';
import type { Store } from './domain/store.js';
import type { Dispatcher } from './dispatcher/dispatcher.js';
import { createLogger } from './logging/create-logger.js';
import { Metrics } from './metrics/metrics.js';
import { buildOpsApp } from './ops/ops-routes.js';
import type { ReadOpsStatus } from './ops/ops-status.js';
import type { DispatchersView } from './domain/delivery/status-board.js';
import { startBackgroundJobs, type BackgroundJobs } from './scheduler/background-jobs.js';
import { startSmsc, type RunningSmsc } from './smsc/start-smsc.js';
import { startDelivery } from './runtime/start-delivery.js';
import { ExplainedError } from './domain/explained-error.js';
import {
  closeWithin,
  describeError,
  listenOrExplain,
  StartedParts,
} from './runtime/start-steps.js';
import type { Database } from './storage/engine.js';
import { dispatchersViewOf } from './storage/status-board-store.js';
import { createStore } from './storage/store.js';
import { logMailer } from './mail/log-mailer.js';
import { smtpMailer } from './mail/smtp-mailer.js';
import { openMigratedDatabase } from './runtime/open-migrated-database.js';
import { createOutbox } from './api/console/outbox.js';
import type { Mailer } from './domain/mail/mailer.js';
import { startWebhookDeliverer, type WebhookDeliverer } from './webhooks/webhook-deliverer.js';

export interface Roles {
  readonly api: boolean;
  readonly scheduler: boolean;
  /** Delivers to the carriers of NOK_CARRIERS_FILE, or to the built-in SMSC when it runs here. */
  readonly dispatcher?: boolean;
  /** The built-in SMSC simulator, on NOK_SMSC_HOST:NOK_SMSC_PORT. */
  readonly smsc?: boolean;
  /** Delivers webhooks (unless NOK_WEBHOOKS=off); any number of processes may. */
  readonly webhooks?: boolean;
}

export interface Runtime {
  readonly database: Database;
  readonly store: Store;
  /** The customers' API (`/api/v2`, `/health`, `/docs`), with the api role. */
  readonly app?: FastifyInstance;
  /** The operator endpoints (`/health`, `/metrics`, `/status`), in every role. */
  readonly ops: FastifyInstance;
  readonly jobs?: BackgroundJobs;
  readonly dispatcher?: Dispatcher;
  readonly webhooks?: WebhookDeliverer;
  /** What this process's scheduler and dispatcher tell of messages, once committed (ADR 0040). */
  readonly events: LifecycleEvents;
  readonly carriers?: Carriers;
  readonly smsc?: RunningSmsc;
  readonly metrics?: Metrics;
  /** The address the API listens on. */
  readonly url?: string;
  /** The address the operator endpoints listen on. */
  readonly opsUrl?: string;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** What the scheduler and the dispatcher wait on; with a fake clock, its timers. */
  readonly timers?: Timers;
  /** false: build the apps without listening (tests inject). */
  readonly listen?: boolean;
  /** The carriers, instead of NOK_CARRIERS_FILE. */
  readonly carriers?: CarrierConfig;
}

/**
 * Opens the store, migrates it, and starts the roles asked for, in one process, each part by
 * the function named after it. A part that fails to start stops those started before it, so a
 * failed start leaves nothing running, and says which part failed and why.
 */
export async function startRuntime(
  config: Config,
  roles: Roles,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const events = new LifecycleEvents((error, name) =>
    logger.error({ err: error, event: name }, 'a listener of a lifecycle event failed'),
  );
  const listen = options.listen !== false;
  const started = new StartedParts(logger);
  try {
    const { database, store } = await openStore(config, clock, logger);
    started.push(() => database.close());
    const metrics = config.metrics ? new Metrics() : undefined;

    const smsc = roles.smsc ? await startBuiltInSmsc(config, logger) : undefined;
    if (smsc) started.push(() => smsc.close());

    const delivery = roles.dispatcher
      ? await startDelivery(config, {
          database,
          smsc,
          clock,
          timers,
          events,
          logger,
          metrics,
          carriers: options.carriers,
        })
      : undefined;
    if (delivery) started.push(() => delivery.stop());
    metrics?.observe({
      carriers: () => delivery?.carriers.status() ?? [],
      queueDepth: () => database.delivery.queueDepth(),
      webhookBacklog: () => store.webhookBacklog(clock.now()),
      now: () => clock.now(),
    });

    const jobs = roles.scheduler
      ? startBackgroundJobs({
          store,
          engine: database.engine,
          clock,
          timers,
          events,
          logger,
          intervalMs: config.schedulerIntervalMs,
          chunkSize: config.materialiseChunkSize,
          // A process wakes its own roles itself, and other processes' for roles it lacks.
          onWork: () => (delivery ? delivery.dispatcher.wake() : database.wakes.notify('dispatch')),
          purge: { sessionLimits: config.sessionLimits },
        })
      : undefined;
    if (jobs) started.push(() => jobs.stop());

    const webhooks =
      roles.webhooks && config.webhooks.deliver
        ? startWebhookDeliverer({
            store,
            clock,
            timers,
            logger: logger.child({ part: 'webhooks' }),
            settings: config.webhooks,
            mail: createOutbox(mailerOf(config, logger), logger),
            publicUrl: config.publicUrl,
            metrics,
            drainMs: config.drainMs,
          })
        : undefined;
    if (webhooks) started.push(() => webhooks.stop());

    // /status on the operator listener shows this process; the console's carriers page shows
    // every dispatcher process, from the statuses they publish (ADR 0035).
    const status: ReadOpsStatus = async () => {
      const own = delivery?.status();
      return {
        roles: { ...roles },
        carriers: own?.carriers ?? [],
        dispatcher: own?.dispatcher ?? null,
        queueDepth: await database.delivery.queueDepth(),
        smsc: smsc ? { host: smsc.host, port: smsc.port } : null,
      };
    };

    const api = roles.api
      ? await startApi(config, {
          store,
          clock,
          logger,
          listen,
          dispatchers: dispatchersViewOf(database),
          onAccepted: (charged) => {
            if (jobs) jobs.wake();
            else database.wakes.notify('materialise');
            metrics?.acceptedRecipients.inc({ engine: database.engine.name }, charged);
          },
        })
      : undefined;
    if (api) started.push(() => closeWithin(api.app, config.drainMs, logger));

    // Other processes' wake-ups for the roles this one runs (docs/adr/0052).
    database.wakes.listen(
      [...(jobs ? (['materialise'] as const) : []), ...(delivery ? (['dispatch'] as const) : [])],
      (topic) => (topic === 'materialise' ? jobs?.wake() : delivery?.dispatcher.wake()),
    );

    const ops = await startOps(config, { logger, listen, metrics, status });
    started.push(() => closeWithin(ops.app, config.drainMs, logger));

    return {
      database,
      store,
      app: api?.app,
      ops: ops.app,
      jobs,
      dispatcher: delivery?.dispatcher,
      webhooks,
      events,
      carriers: delivery?.carriers,
      smsc,
      metrics,
      url: api?.url,
      opsUrl: ops.url,
      stop: () => started.stopAll(),
    };
  } catch (error) {
    await started.stopAll();
    throw error;
  }
}

/** The store of NOK_DATABASE_URL, migrated. */
async function openStore(
  config: Config,
  clock: Clock,
  logger: Logger,
): Promise<{ database: Database; store: Store }> {
  const { database } = await openMigratedDatabase(config.databaseUrl, {
    nowMs: clock.now(),
    onIdleConnectionError: (error) =>
      logger.warn({ err: error }, 'an idle database connection broke; the pool replaces it'),
    directUrl: config.databaseDirectUrl,
    onWakeError: (error) =>
      logger.warn({ err: error }, 'a wake-up between processes failed; polling finds the work'),
  });
  return { database, store: createStore(database.db) };
}

/** The built-in SMSC simulator, as NOK_SMSC_HOST, NOK_SMSC_PORT and NOK_SMSC_OPTIONS say. */
async function startBuiltInSmsc(config: Config, logger: Logger): Promise<RunningSmsc> {
  const { host, port } = config.smsc;
  let smsc: RunningSmsc;
  try {
    smsc = await startSmsc({
      ...config.smsc.settings,
      host,
      port,
      logger: logger.child({ role: 'smsc' }),
    });
  } catch (error) {
    throw new ExplainedError(
      `Cannot start the built-in SMSC on ${host}:${port} (NOK_SMSC_HOST, NOK_SMSC_PORT): ${describeError(error)}`,
      { cause: error },
    );
  }
  logger.info({ host: smsc.host, port: smsc.port }, 'built-in SMSC listening');
  return smsc;
}

/** NOK_SMTP_URL's server, or the log when none is set (a demo). */
function mailerOf(config: Config, logger: Logger): Mailer {
  return config.mail.smtpUrl
    ? smtpMailer(config.mail.smtpUrl, config.mail.from)
    : logMailer(logger.child({ part: 'mail' }));
}

/** The customers' API on NOK_HOST:NOK_PORT. */
async function startApi(
  config: Config,
  deps: {
    store: Store;
    clock: Clock;
    logger: Logger;
    listen: boolean;
    dispatchers: DispatchersView;
    onAccepted: (charged: number) => void;
  },
): Promise<{ app: FastifyInstance; url?: string }> {
  const app = await buildApp({
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger,
    rateLimit: config.rateLimit,
    sendBodyLimitBytes: config.sendBodyLimitBytes,
    trustProxy: config.trustProxy,
    senderDocumentMaxBytes: config.senderDocumentMaxBytes,
    mailer: mailerOf(config, deps.logger),
    publicUrl: config.publicUrl,
    consoleOrigin: config.consoleOrigin,
    linkLifetimes: config.linkLifetimes,
    sessionLimits: config.sessionLimits,
    onAccepted: deps.onAccepted,
    dispatchers: deps.dispatchers,
    webhookSecretOverlapMs: config.webhooks.secretOverlapMs,
  });
  if (!deps.listen) return { app };
  const url = await listenOrExplain(
    app,
    { host: config.host, port: config.port },
    {
      what: 'the API',
      settings: 'NOK_HOST, NOK_PORT',
    },
  );
  return { app, url };
}

/** The operator endpoints on NOK_OPS_HOST:NOK_OPS_PORT. */
async function startOps(
  config: Config,
  deps: {
    logger: Logger;
    listen: boolean;
    metrics: Metrics | undefined;
    status: ReadOpsStatus;
  },
): Promise<{ app: FastifyInstance; url?: string }> {
  const app = await buildOpsApp(deps.logger, { metrics: deps.metrics, status: deps.status });
  if (!deps.listen) return { app };
  const url = await listenOrExplain(app, config.ops, {
    what: 'the operator endpoints',
    settings: 'NOK_OPS_HOST, NOK_OPS_PORT',
  });
  return { app, url };
}
