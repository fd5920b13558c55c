import type { Logger } from 'pino';
import type { ReceiptReport } from '../domain/delivery/delivery-store.js';
import type { CarrierPort, Router } from '../domain/delivery/carrier-port.js';
import type { CarrierStatus } from '../domain/delivery/status-board.js';
import { createCarrierBinds, type CarrierBinds } from './carrier-binds.js';
import { routeFor, type CarrierConfig } from './carrier-config.js';
import { receiptHandler, smppCarrier } from './smpp-carrier.js';

export interface Carriers {
  /** The carriers for a number, in failover order (carrier-config.ts routeFor). */
  readonly route: Router;
  /** Every carrier's binds × window: the parts that can be in flight at once. */
  readonly windowCapacity: number;
  readonly receiptWindowsMs: ReadonlyMap<string, number>;
  status(): CarrierStatus[];
  /** Opens the binds; they reconnect by themselves from then on. */
  start(): void;
  /** Unbinds every bind gracefully, within `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * The carriers of the carrier file, each its binds behind the dispatcher's CarrierPort. Every
 * receipt any bind receives goes to `onReceipt`, which resolves once it is stored.
 */
export function createCarriers(
  config: CarrierConfig,
  deps: { logger: Logger; onReceipt: (report: ReceiptReport) => Promise<void> },
): Carriers {
  const binds = new Map<string, CarrierBinds>();
  const ports = new Map<string, CarrierPort>();
  for (const settings of config.carriers) {
    // The binds name their carrier in their own log lines (a child logger of theirs); so does
    // the receipt handler's, once: a field bound twice would print twice in each line.
    const carrierBinds = createCarrierBinds(settings, {
      logger: deps.logger,
      onDeliver: receiptHandler(
        settings.name,
        deps.onReceipt,
        deps.logger.child({ carrier: settings.name }),
      ),
    });
    binds.set(settings.name, carrierBinds);
    ports.set(settings.name, smppCarrier(carrierBinds));
  }
  // Routes depend on the number's prefix only when some carrier lists prefixes.
  const everyNumberRoute = config.carriers.every((c) => c.routing.prefixes.length === 0)
    ? routeFor(config, '').map((c) => ports.get(c.name)!)
    : null;
  const route: Router = (msisdn) =>
    everyNumberRoute ?? routeFor(config, msisdn).map((c) => ports.get(c.name)!);

  return {
    route,
    windowCapacity: config.carriers.reduce((sum, c) => sum + c.binds * c.windowSize, 0),
    receiptWindowsMs: new Map(config.carriers.map((c) => [c.name, c.receiptWindowMs])),
    status: () => [...binds.values()].map((b) => b.status()),
    start() {
      for (const b of binds.values()) b.start();
    },
    async stop(timeoutMs) {
      await Promise.all([...binds.values()].map((b) => b.stop(timeoutMs)));
    },
  };
}
