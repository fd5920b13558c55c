// Times scanSendBody on a 2,000,000-number send body against JSON.parse + Set.
// Each contender runs in its own child process so peak RSS (maxRSS) is its own; the parent
// writes the body to a temp file once, and a child only reads it back before measuring.
//
//   node --import tsx bench/scan-send-body.bench.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanSendBody } from '../src/api/send-body/scan-send-body.js';
import { normalizeMsisdn } from '../src/domain/recipients/msisdn.js';
import { seededRandom } from '../test/support/seeded-random.js';

const NUMBER_COUNT = 2_000_000;
const DUPLICATE_RATE = 0.01;
const INVALID_NUMBERS = ['+66812345678', '08-1234-5678', '0812345', '668123456789', 'abc'];
const RUNS = 3;
const MB = 1024 * 1024;

type Contender = 'scan' | 'json-parse';

function buildBody(): Buffer {
  const random = seededRandom(42);
  const numbers: string[] = [];
  for (let i = 0; i < NUMBER_COUNT - INVALID_NUMBERS.length; i++) {
    const repeat = i > 0 && random() < DUPLICATE_RATE;
    const suffix = repeat
      ? suffixOf(numbers[Math.floor(random() * i)] as string)
      : Math.floor(random() * 1e9);
    const national = String(suffix).padStart(9, '0');
    numbers.push(random() < 0.5 ? `0${national}` : `66${national}`);
  }
  for (const text of INVALID_NUMBERS)
    numbers.splice(Math.floor(random() * numbers.length), 0, text);
  const body = { sender: 'NOK', content: 'Flash sale today only', msisdns: numbers, dryRun: false };
  return Buffer.from(JSON.stringify(body));
}

function suffixOf(msisdn: string): number {
  return Number(msisdn.slice(msisdn.length - 9));
}

function scanOnce(body: Buffer): number {
  const scanned = scanSendBody(body, { maxNumbers: NUMBER_COUNT });
  return scanned.msisdns?.valid.length ?? 0;
}

// The straightforward route the scanner replaces.
function jsonParseOnce(body: Buffer): number {
  const parsed = JSON.parse(body.toString('utf8')) as { msisdns: string[] };
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const text of parsed.msisdns) {
    const msisdn = normalizeMsisdn(text);
    if (msisdn === null) invalid.add(text);
    else valid.add(msisdn);
  }
  return valid.size;
}

function measure(contender: Contender, bodyPath: string): void {
  const body = readFileSync(bodyPath);
  const run = contender === 'scan' ? scanOnce : jsonParseOnce;
  const baselineRss = process.memoryUsage().rss;
  const seconds: string[] = [];
  let uniqueNumbers = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    uniqueNumbers = run(body);
    seconds.push((Number(process.hrtime.bigint() - started) / 1e9).toFixed(3));
  }
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `${contender.padEnd(10)} runs ${seconds.join(' / ')} s | unique ${uniqueNumbers} | ` +
      `rss before ${(baselineRss / MB).toFixed(0)} MB, peak ${(peakRss / MB).toFixed(0)} MB ` +
      `(+${((peakRss - baselineRss) / MB).toFixed(0)} MB)`,
  );
}

function main(): void {
  const [contender, bodyPath] = process.argv.slice(2);
  if (contender !== undefined && bodyPath !== undefined) {
    measure(contender as Contender, bodyPath);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'nok-bench-'));
  try {
    const path = join(dir, 'body.json');
    const body = buildBody();
    writeFileSync(path, body);
    console.log(`body: ${NUMBER_COUNT} numbers, ${(body.length / MB).toFixed(1)} MB`);
    const self = fileURLToPath(import.meta.url);
    for (const name of ['scan', 'json-parse'] satisfies Contender[]) {
      spawnSync(process.execPath, ['--import', 'tsx', self, name, path], { stdio: 'inherit' });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
