// A send body of random valid numbers, written straight into one Buffer (the way a client
// streaming a large list would), plus the numbers themselves so the bench can pick searches.

export interface BenchSendBody {
  readonly body: Buffer;
  /** The 9-digit suffixes in request order. */
  readonly suffixes: Uint32Array;
}

const HEAD_TEMPLATE = (sender: string) =>
  `{"sender":${JSON.stringify(sender)},"content":"Flash sale today only: 20% off everything","msisdns":[`;
const TAIL = ']}';
const MAX_NUMBER_BYTES = 11 + 3; // "66XXXXXXXXX",

/**
 * `count` numbers: random 9-digit suffixes, half written `0XXXXXXXXX` and half `66XXXXXXXXX`,
 * with `include` (66… numbers, e.g. blocklisted ones) placed at random positions.
 */
export function buildSendBody(
  count: number,
  sender: string,
  include: readonly string[],
  random: () => number,
): BenchSendBody {
  const suffixes = new Uint32Array(count);
  for (let i = 0; i < count; i++) suffixes[i] = Math.floor(random() * 1_000_000_000);
  for (const msisdn of include) suffixes[Math.floor(random() * count)] = Number(msisdn.slice(2));

  const head = Buffer.from(HEAD_TEMPLATE(sender));
  const body = Buffer.allocUnsafe(head.length + count * MAX_NUMBER_BYTES + TAIL.length);
  let at = head.copy(body, 0);
  for (let i = 0; i < count; i++) {
    if (i > 0) body[at++] = 0x2c; // ,
    body[at++] = 0x22; // "
    if (random() < 0.5) {
      body[at++] = 0x30; // 0
    } else {
      body[at++] = 0x36; // 6
      body[at++] = 0x36;
    }
    let suffix = suffixes[i]!;
    for (let d = 8; d >= 0; d--) {
      body[at + d] = 0x30 + (suffix % 10);
      suffix = Math.floor(suffix / 10);
    }
    at += 9;
    body[at++] = 0x22;
  }
  at += body.write(TAIL, at, 'latin1');
  return { body: body.subarray(0, at), suffixes };
}

/** Distinct random `66XXXXXXXXX` numbers. */
export function randomMsisdns(count: number, random: () => number): string[] {
  const found = new Set<string>();
  while (found.size < count) {
    found.add('66' + String(Math.floor(random() * 1_000_000_000)).padStart(9, '0'));
  }
  return [...found];
}
