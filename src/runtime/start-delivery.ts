import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  loadCarrierConfig,
  parseCarrierConfig,
  type CarrierConfig,
} from '../carriers/carrier-config.js';
import { createCarriers, type Carriers } from '../carriers/start-carriers.js';
import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { LifecycleEvents } from '../domain/lifecycle-events.js';
import type { Timers } from '../domain/timers.js';
import type { DispatchObserver } from '../dispatcher/dispatcher-options.js';
import { startDispatcher, type Dispatcher } from '../dispatcher/dispatcher.js';
import { startDeliveryFigures } from '../dispatcher/delivery-figures.js';
import type { Metrics } from '../metrics/metrics.js';
import type { DispatcherStatus } from '../domain/delivery/status-board.js';
import { startStatusPublisher } from '../ops/status-publisher.js';
import type { RunningSmsc } from '../smsc/start-smsc.js';
import { deliveryFiguresStore } from '../storage/dashboard-store.js';
import type { Database } from '../storage/engine.js';
import { statusBoardStore } from '../storage/status-board-store.js';
import { ExplainedError } from '../domain/explained-error.js';

/** How often a dispatcher adds its platform-dashboard figures to the database (ADR 0030). */
const FIGURES_FLUSH_MS = 10_000;

export interface Delivery {
  readonly dispatcher: Dispatcher;
  readonly carriers: Carriers;
  /** What /status shows of delivery, and what the process publishes on the status board. */
  status(): DispatcherStatus;
  /**
   * Stops claiming and drains the parts in flight, unbinds the carriers (receipts are still
   * stored meanwhile), then stores the receipts still queued; each within NOK_DISPATCH_DRAIN_MS.
   * Its status stays published until the end, then is removed from the board.
   */
  stop(): Promise<void>;
}

/**
 * The dispatcher role: the carriers of NOK_CARRIERS_FILE (or `carriers`, or the built-in SMSC
 * when it runs in this process), their binds opened, and a dispatcher paced by the
 * NOK_DISPATCH_* settings delivering to them.
 */
export async function startDelivery(
  config: Config,
  deps: {
    readonly database: Database;
    readonly smsc: RunningSmsc | undefined;
    readonly clock: Clock;
    readonly timers: Timers;
    readonly events: LifecycleEvents;
    readonly logger: Logger;
    readonly metrics: Metrics | undefined;
    readonly carriers?: CarrierConfig;
  },
): Promise<Delivery> {
  const carrierConfig = deps.carriers ?? (await carriersOf(config, deps.smsc));
  const logger = deps.logger.child({ role: 'dispatcher' });
  const settings = config.dispatch;
  const carriers = createCarriers(carrierConfig, {
    logger,
    // Receipts come only once the binds are open, below, after the dispatcher exists.
    onReceipt: (report) => dispatcher.recordReceipt(report),
  });
  const figures = startDeliveryFigures({
    store: deliveryFiguresStore(deps.database.db),
    now: () => deps.clock.now(),
    logger,
    flushMs: FIGURES_FLUSH_MS,
  });
  // Names this process in its chunk leases and on the status board.
  const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const observers = [figures.observer, ...(deps.metrics ? [metricsObserver(deps.metrics)] : [])];
  const dispatcher = startDispatcher({
    delivery: deps.database.delivery,
    route: carriers.route,
    clock: deps.clock,
    timers: deps.timers,
    events: deps.events,
    logger,
    owner,
    chunkSize: settings.chunkSize,
    leaseMs: settings.leaseMs,
    maxInFlight: settings.maxInFlight || Math.max(100, carriers.windowCapacity),
    idlePollMs: settings.idlePollMs,
    retry: {
      initialDelayMs: settings.retryInitialDelayMs,
      maxDelayMs: settings.retryMaxDelayMs,
      windowMs: settings.retryWindowMs,
    },
    receiptWindowsMs: carriers.receiptWindowsMs,
    defaultReceiptWindowMs: Math.max(...carriers.receiptWindowsMs.values()),
    sweepIntervalMs: settings.sweepIntervalMs,
    commit: settings.commit,
    observer: allObservers(observers),
  });
  carriers.start();
  const status = (): DispatcherStatus => ({
    carriers: carriers.status(),
    dispatcher: dispatcher.stats(),
  });
  const publisher = startStatusPublisher({
    board: statusBoardStore(deps.database.db),
    owner,
    read: status,
    now: () => deps.clock.now(),
    logger,
  });
  return {
    dispatcher,
    carriers,
    status,
    async stop() {
      await dispatcher.stop(settings.drainMs);
      await carriers.stop(settings.drainMs);
      await dispatcher.stopReceipts();
      await figures.stop();
      await publisher.stop();
    },
  };
}

async function carriersOf(config: Config, smsc: RunningSmsc | undefined): Promise<CarrierConfig> {
  if (config.carriersFile) return loadCarrierConfig(config.carriersFile);
  if (smsc) return builtInCarrier(smsc);
  throw new ExplainedError(
    'The dispatcher has no carrier: set NOK_CARRIERS_FILE (see docs/carriers.example.json)',
  );
}

function allObservers(observers: readonly DispatchObserver[]): DispatchObserver {
  return {
    submitted(carrier, answer, part) {
      for (const o of observers) o.submitted(carrier, answer, part);
    },
    receipts(applied) {
      for (const o of observers) o.receipts(applied);
    },
  };
}

function metricsObserver(metrics: Metrics): DispatchObserver {
  return {
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
