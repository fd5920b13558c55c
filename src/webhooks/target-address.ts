// Which IP addresses a webhook may be posted to. The target URL is the customer's, and Nok posts
// to it from inside the operator's network: without this check a customer could make Nok reach
// its loopback, the private network around it or the cloud's metadata service (SSRF). Every
// address is reduced to its bytes, so a spelling (an IPv4-mapped IPv6 address, a NAT64 one)
// cannot hide an address from the ranges below.
//
// The cloud metadata addresses are refused before allowPrivate is even looked at: an operator
// who allows private targets (a webhook receiver on the same network) still must not let a
// customer read the instance's credentials.
import { isIPv4, isIPv6 } from 'node:net';

const ALLOW_PRIVATE_HINT = '(set NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets)';
const METADATA = 'a cloud metadata address, never a webhook target';

/** A block of addresses, as bytes (4 or 16) and the number of leading bits that must match. */
interface Block {
  readonly bytes: readonly number[];
  readonly bits: number;
  /** How the block is named in a refusal, e.g. "a private address". */
  readonly kind: string;
}

/** AWS, GCP, Azure (169.254.169.254), ECS tasks, Alibaba, Oracle's legacy one, and AWS's IPv6. */
const METADATA_ADDRESSES: readonly Block[] = [
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
].map((address) => block(address, METADATA));

const IPV4_BLOCKS: readonly Block[] = [
  block('0.0.0.0/8', 'an unspecified address'),
  block('10.0.0.0/8', 'a private address'),
  block('100.64.0.0/10', 'a carrier-grade NAT address'),
  block('127.0.0.0/8', 'a loopback address'),
  block('169.254.0.0/16', 'a link-local address'),
  block('172.16.0.0/12', 'a private address'),
  block('192.0.0.0/24', 'a reserved address'),
  block('192.168.0.0/16', 'a private address'),
  block('224.0.0.0/4', 'a multicast address'),
  // Includes the broadcast address 255.255.255.255.
  block('240.0.0.0/4', 'a reserved address'),
];

const IPV6_BLOCKS: readonly Block[] = [
  block('::/128', 'an unspecified address'),
  block('::1/128', 'a loopback address'),
  block('fe80::/10', 'a link-local address'),
  // Deprecated, but still what it was: a private network's.
  block('fec0::/10', 'a site-local address'),
  block('fc00::/7', 'a unique local address'),
  block('ff00::/8', 'a multicast address'),
];

/** IPv6 blocks that carry an IPv4 address: connecting to one reaches (or may reach) that IPv4. */
interface EmbeddingBlock extends Block {
  /** Where the IPv4 address sits in the 16 bytes. */
  readonly at: number;
  /** Refused as `kind` even when the embedded IPv4 address is public. */
  readonly refusedAnyway: boolean;
}

const EMBEDDING_BLOCKS: readonly EmbeddingBlock[] = [
  // The kernel connects to ::ffff:a.b.c.d over IPv4.
  { ...block('::ffff:0:0/96', 'an IPv4-mapped address'), at: 12, refusedAnyway: false },
  // A NAT64 gateway on the path forwards to the embedded address.
  { ...block('64:ff9b::/96', 'a NAT64 address'), at: 12, refusedAnyway: false },
  // Deprecated IPv4-compatible addresses (after ::/128 and ::1/128 above): a sit tunnel
  // forwards them. Not routable either way, so refused even when the IPv4 is public.
  { ...block('::/96', 'a reserved address'), at: 12, refusedAnyway: true },
  // 6to4: a relay forwards to the embedded address.
  { ...block('2002::/16', 'a 6to4 address'), at: 2, refusedAnyway: false },
];

/** Why `address` may not be a webhook target, or null when it may. With allowPrivate only the cloud metadata addresses stay refused. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const bytes = addressBytes(address);
  if (bytes === null) return 'not an IP address';
  const reason = refusal(bytes);
  if (reason === null) return null;
  if (reason.metadata) return reason.text;
  return allowPrivate ? null : `${reason.text} ${ALLOW_PRIVATE_HINT}`;
}

interface Refusal {
  readonly text: string;
  readonly metadata: boolean;
}

function refusal(bytes: readonly number[]): Refusal | null {
  const metadata = METADATA_ADDRESSES.find((entry) => contains(entry, bytes));
  if (metadata !== undefined) return { text: metadata.kind, metadata: true };
  if (bytes.length === 4) {
    const found = IPV4_BLOCKS.find((entry) => contains(entry, bytes));
    return found === undefined ? null : { text: found.kind, metadata: false };
  }
  const found = IPV6_BLOCKS.find((entry) => contains(entry, bytes));
  if (found !== undefined) return { text: found.kind, metadata: false };
  return embeddedRefusal(bytes);
}

/** An IPv6 address that carries an IPv4 one is refused as that IPv4 address would be. */
function embeddedRefusal(bytes: readonly number[]): Refusal | null {
  const embedding = EMBEDDING_BLOCKS.find((entry) => contains(entry, bytes));
  if (embedding === undefined) return null;
  const ipv4 = bytes.slice(embedding.at, embedding.at + 4);
  const inner = refusal(ipv4);
  if (inner !== null) {
    return { text: `an IPv6 form of ${ipv4.join('.')}, ${inner.text}`, metadata: inner.metadata };
  }
  return embedding.refusedAnyway ? { text: embedding.kind, metadata: false } : null;
}

function contains(entry: Block, bytes: readonly number[]): boolean {
  if (entry.bytes.length !== bytes.length) return false;
  for (let bit = 0; bit < entry.bits; bit += 8) {
    const index = bit / 8;
    const width = Math.min(8, entry.bits - bit);
    const mask = (0xff << (8 - width)) & 0xff;
    if (((entry.bytes[index] ?? 0) & mask) !== ((bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** "10.0.0.0/8" or a single address (all its bits must match). */
function block(cidr: string, kind: string): Block {
  const [address = '', bits] = cidr.split('/');
  const bytes = addressBytes(address);
  if (bytes === null) throw new Error(`not an address block: ${cidr}`);
  return { bytes, bits: bits === undefined ? bytes.length * 8 : Number(bits), kind };
}

/** The 4 or 16 bytes of an IP address, or null when `text` is not one. */
function addressBytes(text: string): number[] | null {
  if (isIPv4(text)) return ipv4Bytes(text);
  // A zone ("fe80::1%eth0") says which interface to use, not which address.
  const unzoned = text.split('%')[0] ?? '';
  if (isIPv6(unzoned)) return ipv6Bytes(unzoned);
  return null;
}

function ipv4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

function ipv6Bytes(text: string): number[] {
  const [head = '', tail] = text.split('::');
  const left = ipv6Groups(head);
  const right = tail === undefined ? [] : ipv6Groups(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right].flatMap((group) => [group >> 8, group & 0xff]);
}

/** The 16-bit groups of one side of "::"; a trailing dotted IPv4 part counts as two. */
function ipv6Groups(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(group);
    return [(a << 8) | b, (c << 8) | d];
  });
}
