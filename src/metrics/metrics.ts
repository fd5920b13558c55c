import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RECEIPT_LATENCY_BUCKETS_S } from '../domain/dashboard/latency-percentiles.js';

/** What the metrics read when scraped: the process's carriers and dispatch backlog. */
export interface MetricsSources {
  carriers(): readonly {
    name: string;
    bindsUp: number;
    bindsWanted: number;
    inFlight: number;
    waiting: number;
    currentRatePerSecond: number;
  }[];
  /** Recipients of pending messages not yet handed to a dispatch chunk. */
  queueDepth(): Promise<number>;
  /** Webhook outbox rows and due deliveries, and the oldest one's time (ms). */
  webhookBacklog(): Promise<{ depth: number; oldestAt: number | null }>;
  now(): number;
}

/**
 * Nok's Prometheus metrics, one registry per process (prom-client). Counters are incremented
 * where things happen; gauges are read from `sources` at each scrape.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly acceptedRecipients: Counter<'engine'>;
  readonly submits: Counter<'carrier'>;
  readonly submitErrors: Counter<'carrier' | 'code'>;
  readonly receipts: Counter<'carrier' | 'status'>;
  readonly receiptLatency: Histogram<'carrier'>;
  readonly webhookAttempts: Counter<'outcome'>;
  #sources: MetricsSources | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'nok_process_' });
    const registers = [this.registry];
    this.acceptedRecipients = new Counter({
      name: 'nok_accepted_recipients_total',
      help: 'Recipients of accepted sends (charged ones: invalid and blocked are not counted).',
      labelNames: ['engine'],
      registers,
    });
    this.submits = new Counter({
      name: 'nok_submits_total',
      help: 'Parts a carrier accepted (submit_sm_resp ESME_ROK).',
      labelNames: ['carrier'],
      registers,
    });
    this.submitErrors = new Counter({
      name: 'nok_submit_errors_total',
      help: 'Parts a carrier did not accept, by code: the SMPP command_status (0x00000058), or timeout, closed, down.',
      labelNames: ['carrier', 'code'],
      registers,
    });
    this.receipts = new Counter({
      name: 'nok_receipts_total',
      help: 'Final receipts stored, by the recipient part outcome.',
      labelNames: ['carrier', 'status'],
      registers,
    });
    this.receiptLatency = new Histogram({
      name: 'nok_receipt_latency_seconds',
      help: 'From a part accepted by the carrier to its final receipt.',
      labelNames: ['carrier'],
      buckets: [...RECEIPT_LATENCY_BUCKETS_S],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'nok_webhook_attempts_total',
      help: 'Webhook requests made, by outcome: delivered (2xx), retry (failed, tried again later), failed (given up).',
      labelNames: ['outcome'],
      registers,
    });
    const sources = () => this.#sources;
    // Both backlog gauges come from one read per scrape.
    let backlog: Promise<{ depth: number; oldestAt: number | null }> | undefined;
    const readBacklog = () =>
      (backlog ??=
        sources()
          ?.webhookBacklog()
          .finally(() => {
            setImmediate(() => (backlog = undefined));
          }) ?? Promise.resolve({ depth: 0, oldestAt: null }));
    new Gauge({
      name: 'nok_webhook_backlog',
      help: 'Webhook outbox rows not yet made events, plus deliveries due and not yet made.',
      registers,
      async collect() {
        this.set((await readBacklog()).depth);
      },
    });
    new Gauge({
      name: 'nok_webhook_backlog_oldest_seconds',
      help: 'Age of the oldest of them (0 when there is none).',
      registers,
      async collect() {
        const { oldestAt } = await readBacklog();
        const now = sources()?.now() ?? Date.now();
        this.set(oldestAt === null ? 0 : Math.max(0, now - oldestAt) / 1000);
      },
    });
    new Gauge({
      name: 'nok_binds_up',
      help: 'Binds of a carrier that are bound.',
      labelNames: ['carrier'],
      registers,
      collect() {
        this.reset();
        for (const c of sources()?.carriers() ?? []) this.set({ carrier: c.name }, c.bindsUp);
      },
    });
    new Gauge({
      name: 'nok_binds_wanted',
      help: 'Binds of a carrier that Nok keeps open when it can.',
      labelNames: ['carrier'],
      registers,
      collect() {
        this.reset();
        for (const c of sources()?.carriers() ?? []) this.set({ carrier: c.name }, c.bindsWanted);
      },
    });
    new Gauge({
      name: 'nok_submits_in_flight',
      help: 'Parts submitted to a carrier and not yet answered, plus those waiting for a window.',
      labelNames: ['carrier'],
      registers,
      collect() {
        this.reset();
        for (const c of sources()?.carriers() ?? [])
          this.set({ carrier: c.name }, c.inFlight + c.waiting);
      },
    });
    new Gauge({
      name: 'nok_carrier_rate_limit_per_second',
      help: 'The submit rate a carrier currently gets (lowered while it throttles).',
      labelNames: ['carrier'],
      registers,
      collect() {
        this.reset();
        for (const c of sources()?.carriers() ?? [])
          this.set({ carrier: c.name }, c.currentRatePerSecond);
      },
    });
    new Gauge({
      name: 'nok_queue_depth',
      help: 'Recipients of pending messages not yet handed to a dispatcher.',
      registers,
      async collect() {
        const depth = await sources()?.queueDepth();
        if (depth !== undefined) this.set(depth);
      },
    });
  }

  /** Attaches what the gauges read (carriers exist after the registry). */
  observe(sources: MetricsSources): void {
    this.#sources = sources;
  }
}
