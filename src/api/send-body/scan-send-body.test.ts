import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../test/support/seeded-random.js';
import { msisdnToSuffix, normalizeMsisdn } from '../../domain/recipients/msisdn.js';
import { BodyScanError, scanSendBody, type ScannedBody } from './scan-send-body.js';

const MAX_NUMBERS = 1000;

function scan(text: string | Buffer, maxNumbers = MAX_NUMBERS): ScannedBody {
  return scanSendBody(typeof text === 'string' ? Buffer.from(text) : text, { maxNumbers });
}

function scanError(text: string | Buffer, maxNumbers = MAX_NUMBERS): BodyScanError {
  try {
    scan(text, maxNumbers);
  } catch (error) {
    assert.ok(error instanceof BodyScanError, `not a BodyScanError: ${String(error)}`);
    return error;
  }
  assert.fail(`accepted ${JSON.stringify(String(text))}`);
}

function numbersOf(text: string) {
  const msisdns = scan(text).msisdns;
  assert.ok(msisdns);
  return { ...msisdns, valid: [...msisdns.valid] };
}

/** What `JSON.parse` + a plain normalise/dedupe make of a body the scanner should accept. */
function reference(body: Buffer): ScannedBody {
  const { msisdns, ...fields } = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  if (msisdns === undefined) return { fields };
  const valid: number[] = [];
  const seenValid = new Set<string>();
  const invalid = new Set<string>();
  let duplicates = 0;
  for (const text of msisdns as string[]) {
    const normal = normalizeMsisdn(text);
    const seen = normal === null ? invalid : seenValid;
    if (seen.has(normal ?? text)) {
      duplicates++;
      continue;
    }
    seen.add(normal ?? text);
    if (normal !== null) valid.push(msisdnToSuffix(normal) as number);
  }
  const requested = (msisdns as string[]).length;
  const numbers = { valid: Uint32Array.from(valid), invalid: [...invalid], requested, duplicates };
  return { fields, msisdns: numbers };
}

describe('scanSendBody: numbers', () => {
  it('dedupes a number given in both forms, keeping first-occurrence order', () => {
    const numbers = numbersOf(
      '{"msisdns":["0812345678","0600000001","66812345678","66600000001","0900000000"]}',
    );
    assert.deepEqual(numbers.valid, [812345678, 600000001, 900000000]);
    assert.equal(numbers.requested, 5);
    assert.equal(numbers.duplicates, 2);
    assert.deepEqual(numbers.invalid, []);
  });

  it('keeps invalid strings, deduped by exact text, in first-occurrence order', () => {
    const numbers = numbersOf(
      '{"msisdns":["+66812345678","0812345678","abc","+66812345678","","08123","abc",""]}',
    );
    assert.deepEqual(numbers.invalid, ['+66812345678', 'abc', '', '08123']);
    assert.deepEqual(numbers.valid, [812345678]);
    assert.equal(numbers.requested, 8);
    assert.equal(numbers.duplicates, 3);
  });

  it('treats each invalid shape as invalid', () => {
    const shapes = ['081234567', '668123456789', '6681234567', '08123456789', '66-812345678'];
    const numbers = numbersOf(JSON.stringify({ msisdns: [...shapes, 'กขค'] }));
    assert.deepEqual(numbers.invalid, [...shapes, 'กขค']);
    assert.deepEqual(numbers.valid, []);
  });

  it('decodes escaped strings before validating them', () => {
    const numbers = numbersOf(
      '{"msisdns":["\\u0030812345678","66812345678","\\u00366812345670","08\\/1"]}',
    );
    assert.deepEqual(numbers.valid, [812345678, 812345670]);
    assert.deepEqual(numbers.invalid, ['08/1']);
    assert.equal(numbers.duplicates, 1);
  });

  it('accepts an empty list', () => {
    const numbers = numbersOf('{"msisdns":[]}');
    assert.deepEqual(numbers, { valid: [], invalid: [], requested: 0, duplicates: 0 });
  });

  it('leaves msisdns undefined when the body has none', () => {
    const body = scan('{"sender":"NOK","contactGroupId":12}');
    assert.equal(body.msisdns, undefined);
    assert.deepEqual(body.fields, { sender: 'NOK', contactGroupId: 12 });
  });

  it('recognises an escaped "msisdns" member name', () => {
    const body = scan('{"msi\\u0073dns":["0812345678"]}');
    assert.deepEqual(body.fields, {});
    assert.deepEqual([...(body.msisdns?.valid ?? [])], [812345678]);
  });

  it('accepts exactly maxNumbers elements', () => {
    const body = scan('{"msisdns":["0812345678","0812345678","x"]}', 3);
    assert.equal(body.msisdns?.requested, 3);
  });

  it('refuses element maxNumbers + 1 without reading further', () => {
    const error = scanError('{"msisdns":["0812345678","0812345679","0812345670","08', 3);
    assert.equal(error.code, 'TOO_MANY_NUMBERS');
    assert.equal(error.message, 'at most 3 numbers per request');
  });

  it('matches JSON.parse + Set on 50,000 numbers with repeats in both forms', () => {
    const random = seededRandom(11);
    const numbers = Array.from({ length: 50_000 }, () => randomMsisdn(random, 20_000));
    const body = Buffer.from(JSON.stringify({ sender: 'NOK', msisdns: numbers }));
    assert.deepEqual(scanSendBody(body, { maxNumbers: 50_000 }), reference(body));
  });
});

describe('scanSendBody: fields', () => {
  it('parses nested objects and arrays in other members', () => {
    const text =
      '{"variables":{"a":{"b":[1,{"c":"d"}],"e":[]},"f":-1.5e3},"list":[[],[[]],{}],' +
      '"s":"\\u0e01\\n\\"\\\\\\/","n":null,"t":true,"x":false,"num":0,"big":12.5E+2,"neg":-0}';
    assert.deepEqual(scan(text).fields, JSON.parse(text));
  });

  it('allows whitespace between every token', () => {
    const text =
      ' \r\n\t{ \n"sender" \t: "NOK" ,\r\n "msisdns" : [ "0812345678" , \n"66812345679"\t] ,' +
      ' "variables" : { "a" : [ 1 , 2 ] } }\n ';
    const body = scan(text);
    assert.deepEqual(body.fields, { sender: 'NOK', variables: { a: [1, 2] } });
    assert.deepEqual([...(body.msisdns?.valid ?? [])], [812345678, 812345679]);
  });

  it('keeps a "__proto__" member as an own property without touching the prototype', () => {
    const body = scan('{"__proto__":{"polluted":true}}');
    assert.equal(Object.getPrototypeOf(body.fields), Object.prototype);
    assert.deepEqual(Object.keys(body.fields), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('matches JSON.parse on randomised bodies', () => {
    const random = seededRandom(2024);
    for (let i = 0; i < 400; i++) {
      const body = Buffer.from(randomBody(random));
      assert.deepEqual(scan(body), reference(body), body.toString());
    }
  });
});

describe('scanSendBody: refusals', () => {
  it('refuses a duplicate member, however its name is written', () => {
    for (const text of [
      '{"sender":"A","sender":"B"}',
      '{"msisdns":[],"msisdns":[]}',
      '{"a":1,"\\u0061":2}',
    ]) {
      const error = scanError(text);
      assert.equal(error.code, 'INVALID_PARAMETER', text);
      assert.match(error.message, /^duplicate member "/);
    }
  });

  it('refuses msisdns that is not an array', () => {
    for (const value of ['"0812345678"', 'null', '{}', '1', 'true']) {
      const error = scanError(`{"msisdns":${value}}`);
      assert.equal(error.code, 'INVALID_PARAMETER', value);
      assert.equal(error.message, 'msisdns must be an array of strings');
    }
  });

  it('refuses a non-string element, naming its index', () => {
    for (const value of ['1', 'null', '["0812345678"]', '{}', 'false', '812345678']) {
      const error = scanError(`{"msisdns":["0812345678",${value}]}`);
      assert.equal(error.code, 'INVALID_PARAMETER', value);
      assert.equal(error.message, 'msisdns[1] must be a string');
    }
  });

  it('refuses valid JSON that is not an object', () => {
    for (const text of ['[]', '"x"', '1', 'null', ' true ', '[{"msisdns":[]}]']) {
      const error = scanError(text);
      assert.equal(error.code, 'INVALID_PARAMETER', text);
      assert.equal(error.message, 'body must be a JSON object');
    }
  });

  it('refuses malformed JSON wherever it is', () => {
    for (const text of MALFORMED) {
      assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse accepted ${text}`);
      assert.equal(scanError(text).code, 'INVALID_JSON', JSON.stringify(text));
    }
  });

  it('says at which byte the body went wrong', () => {
    assert.match(scanError('{"a":01}').message, /unexpected '1' at byte 6/);
    assert.match(scanError('{"a":"x').message, /unterminated string starting at byte 5/);
    assert.match(scanError('{"a":1} x').message, /at byte 8/);
  });

  it('refuses nesting deeper than 512 levels', () => {
    const deep = `{"v":${'['.repeat(513)}${']'.repeat(513)}}`;
    assert.equal(scanError(deep).code, 'INVALID_JSON');
    const fine = `{"v":${'['.repeat(512)}${']'.repeat(512)}}`;
    assert.deepEqual(scan(fine).fields, JSON.parse(fine));
  });

  it('agrees with JSON.parse on randomly damaged bodies', () => {
    const random = seededRandom(99);
    for (let i = 0; i < 3000; i++) {
      const body = damage(Buffer.from(randomBody(random)), random);
      const expected = expectedOutcome(body);
      let actual: string | ScannedBody;
      try {
        actual = scan(body);
      } catch (error) {
        assert.ok(error instanceof BodyScanError, String(error));
        actual = error.code;
      }
      const context = body.toString();
      if (expected === 'INVALID_JSON') {
        // The scan stops at the first problem, so a refusal met earlier in the body wins.
        assert.equal(typeof actual, 'string', context);
        assert.ok(['INVALID_JSON', 'INVALID_PARAMETER'].includes(actual as string), context);
      } else {
        assert.deepEqual(actual, expected, context);
      }
    }
  });
});

const MALFORMED = [
  '',
  ' \n\t ',
  '{',
  '}',
  '{"sender":"A",}',
  '{"msisdns":["0812345678",]}',
  '{"v":[1,2,]}',
  '{"v":{"a":1,}}',
  '{"sender" "A"}',
  '{"sender":"A"',
  '{"sender":"A',
  '{"msisdns":["0812345678',
  '{"msisdns":["0812345678"',
  '{"msisdns":["0812345678",',
  '{"sender":"\\x"}',
  '{"sender":"\\u12G4"}',
  '{"sender":"\\u12"}',
  '{"sender":"\\',
  '{"msisdns":["\\u003"]}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":-}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":1e}',
  '{"a":1e+}',
  '{"a":0x10}',
  '{"a":1.e5}',
  '{"a":-01}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":tru}',
  '{"a":nul}',
  '{"a":True}',
  '{"a":undefined}',
  '{"sender":"A"} x',
  '{"sender":"A"}{}',
  '{} []',
  '{"sender":"A"}\u0000',
  '\uFEFF{}',
  '{"sender":"line\nbreak"}',
  '{"msisdns":["0812\u0001345678"]}',
  '{"a\tb":1}',
  '{"a":1 "b":2}',
  '{,}',
  '{"a"}',
  '{"a":}',
  '{:1}',
  "{'a':1}",
  '{a:1}',
  '{"a":[}',
  '{"a":{]}',
  '{"a":[1}',
  '{"a":{"b":1]}',
  '{"msisdns":[}',
  '{"msisdns":[,"0812345678"]}',
  '{"msisdns":["0812345678" "0812345679"]}',
  '{"msisdns":["0812345678",,"0812345679"]}',
  '{"msisdns":["0812345678"}',
  '"unterminated',
  '[1,]',
];

/** The scan result `JSON.parse` implies for a body, or the code the scanner must refuse it with. */
function expectedOutcome(body: Buffer): string | ScannedBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'INVALID_JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'INVALID_PARAMETER';
  }
  const msisdns = (parsed as Record<string, unknown>).msisdns;
  if (msisdns !== undefined) {
    if (!Array.isArray(msisdns)) return 'INVALID_PARAMETER';
    for (let i = 0; i < msisdns.length; i++) {
      if (i === MAX_NUMBERS) return 'TOO_MANY_NUMBERS';
      if (typeof msisdns[i] !== 'string') return 'INVALID_PARAMETER';
    }
  }
  return reference(body);
}

// Randomised bodies: valid JSON text written with random whitespace and escapes, so the
// reference is always JSON.parse of the same bytes.

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomMsisdn(random: Random, distinct: number): string {
  const national = String(Math.floor(random() * distinct) * 49_999).padStart(9, '0');
  return random() < 0.5 ? `0${national}` : `66${national}`;
}

const INVALID_NUMBERS = ['+66812345678', '0812345', 'abc', '', '08 1234 5678', 'เบอร์'];
const TOP_LEVEL_KEYS = ['sender', 'content', 'dryRun', 'variables', 'scheduledTime', 'templateId'];
const STRING_CHARS = [...'aZ09 -_/"\\\n\t\u0001\u001fกข€😀\u2028'];
const SPACE = ['', '', '', ' ', '\n', '\t', '\r\n', '  '];

function randomBody(random: Random): string {
  const keys = TOP_LEVEL_KEYS.filter(() => random() < 0.6);
  if (random() < 0.8) keys.splice(Math.floor(random() * (keys.length + 1)), 0, 'msisdns');
  const members = keys.map((key) => {
    const value = key === 'msisdns' ? randomNumbers(random) : randomValue(random, 0);
    return `${ws(random)}${jsonString(random, key)}${ws(random)}:${ws(random)}${value}${ws(random)}`;
  });
  return `${ws(random)}{${members.join(',') || ws(random)}}${ws(random)}`;
}

function randomNumbers(random: Random): string {
  const count = Math.floor(random() * 30);
  const elements = Array.from({ length: count }, () => {
    const text = random() < 0.85 ? randomMsisdn(random, 10) : pick(random, INVALID_NUMBERS);
    return `${ws(random)}${jsonString(random, text)}${ws(random)}`;
  });
  return `[${elements.join(',') || ws(random)}]`;
}

function randomValue(random: Random, depth: number): string {
  const kind = Math.floor(random() * (depth < 4 ? 8 : 6));
  if (kind === 0) return pick(random, ['true', 'false', 'null']);
  if (kind <= 2) return randomNumberText(random);
  if (kind <= 5) return jsonString(random, randomText(random));
  const count = Math.floor(random() * 4);
  if (kind === 6) {
    const items = Array.from({ length: count }, () =>
      wrapWs(random, randomValue(random, depth + 1)),
    );
    return `[${items.join(',') || ws(random)}]`;
  }
  // Nested names start with "k" so damage cannot turn one into a top-level duplicate.
  const members = Array.from({ length: count }, (_, i) => {
    const name = wrapWs(random, jsonString(random, `k${i}${randomText(random)}`));
    return `${name}:${wrapWs(random, randomValue(random, depth + 1))}`;
  });
  return `{${members.join(',') || ws(random)}}`;
}

function randomNumberText(random: Random): string {
  const sign = random() < 0.3 ? '-' : '';
  const int = random() < 0.2 ? '0' : String(1 + Math.floor(random() * 99_999));
  const fraction = random() < 0.3 ? `.${Math.floor(random() * 1000)}` : '';
  const exponent =
    random() < 0.2
      ? `${pick(random, ['e', 'E'])}${pick(random, ['', '+', '-'])}${Math.floor(random() * 30)}`
      : '';
  return sign + int + fraction + exponent;
}

function randomText(random: Random): string {
  return Array.from({ length: Math.floor(random() * 8) }, () => pick(random, STRING_CHARS)).join(
    '',
  );
}

/** A JSON string literal for `text`, escaping what must be escaped and some of what need not. */
function jsonString(random: Random, text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const mustEscape = char === '"' || char === '\\' || code < 0x20;
    if (!mustEscape && random() < 0.85) {
      out += char;
    } else if (char === '/' || (mustEscape && code >= 0x20 && random() < 0.5)) {
      out += `\\${char}`;
    } else if (char === '\n' && random() < 0.5) {
      out += '\\n';
    } else {
      for (let i = 0; i < char.length; i++) {
        const hex = char.charCodeAt(i).toString(16).padStart(4, '0');
        out += `\\u${random() < 0.5 ? hex : hex.toUpperCase()}`;
      }
    }
  }
  return `${out}"`;
}

function ws(random: Random): string {
  return pick(random, SPACE);
}

function wrapWs(random: Random, text: string): string {
  return `${ws(random)}${text}${ws(random)}`;
}

const DAMAGE_BYTES = [...'{}[]":,\\ 0123456789eE.+-tfnulx\t\n\u0001'].map((c) => c.charCodeAt(0));

/** Deletes, inserts or replaces one byte. */
function damage(body: Buffer, random: Random): Buffer {
  const at = Math.floor(random() * (body.length + 1));
  const byte = pick(random, DAMAGE_BYTES);
  const action = Math.floor(random() * 3);
  if (action === 0) return Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
  if (action === 1)
    return Buffer.concat([body.subarray(0, at), Buffer.of(byte), body.subarray(at)]);
  return Buffer.concat([body.subarray(0, at), Buffer.of(byte), body.subarray(at + 1)]);
}
