// Prints a bench's figures, and appends each one as a JSON line to $NOK_BENCH_RESULTS when
// scripts/run-bench.mjs asks for them (it builds the summary table from those lines).
import { appendFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

export interface Figure {
  readonly bench: string;
  readonly engine: string;
  readonly metric: string;
  /** The figure; for a latency, its p99. */
  readonly value: number;
  /** For a latency: its p50, shown before the p99. */
  readonly p50?: number;
  readonly unit: 's' | 'ms' | 'MB' | 'req/s' | 'rows' | 'rows/s' | 'PDUs/s' | 'msg/s' | 'µs' | '×';
  /** Upper bound to meet (lower is better), or for req/s a floor. */
  readonly target?: string;
  readonly met?: boolean;
  readonly note?: string;
}

export function record(figure: Figure): void {
  const target = figure.target
    ? ` (target ${figure.target}: ${figure.met ? 'met' : 'MISSED'})`
    : '';
  const note = figure.note ? `  [${figure.note}]` : '';
  console.log(`  ${figure.metric.padEnd(46)} ${formatFigure(figure).padStart(20)}${target}${note}`);
  const path = process.env.NOK_BENCH_RESULTS;
  if (path) appendFileSync(path, `${JSON.stringify(figure)}\n`);
}

/** `1.234 s`, or `0.41 / 2.10 ms` (p50 / p99) for a latency. */
export function formatFigure(figure: Pick<Figure, 'value' | 'unit' | 'p50'>): string {
  const digits = (value: number) =>
    figure.unit === 'ms'
      ? value < 10
        ? 2
        : 1
      : figure.unit === 's'
        ? 3
        : figure.unit === '×'
          ? 2
          : figure.unit === 'µs'
            ? 1
            : 0;
  const value = `${figure.value.toFixed(digits(figure.value))} ${figure.unit}`;
  return figure.p50 === undefined ? value : `${figure.p50.toFixed(digits(figure.p50))} / ${value}`;
}

/** Where the figures come from: they are only comparable on a like machine. */
export function machineCaveat(): string {
  const cores = cpus();
  return (
    `machine: ${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}. The load generator, ` +
    `the HTTP client and the database server share these cores with Nok, so latencies and ` +
    `req/s are lower bounds of what a dedicated machine would give. Load average now ` +
    `${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (anything else running skews the figures).`
  );
}
