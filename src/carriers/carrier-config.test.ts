import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CarrierConfigError, parseCarrierConfig, routeFor } from './carrier-config.js';

const minimal = { name: 'a', host: 'smsc.example', port: 2775, systemId: 'nok', password: 'pw' };

function problemsOf(json: unknown): readonly string[] {
  try {
    parseCarrierConfig(json);
  } catch (error) {
    assert.ok(error instanceof CarrierConfigError);
    return error.problems;
  }
  assert.fail('the file was accepted');
}

function problemWith(carrier: Record<string, unknown>): string {
  const problems = problemsOf({ carriers: [{ ...minimal, ...carrier }] });
  assert.equal(problems.length, 1, problems.join('\n'));
  return problems[0]!;
}

function routed(prefixesAndPriorities: [string, string[], number][], msisdn: string): string[] {
  const config = parseCarrierConfig({
    carriers: prefixesAndPriorities.map(([name, prefixes, priority]) => ({
      ...minimal,
      name,
      routing: { prefixes, priority },
    })),
  });
  return routeFor(config, msisdn).map((c) => c.name);
}

describe('carrier file', () => {
  it('fills every default around the five required fields', () => {
    assert.deepEqual(parseCarrierConfig({ carriers: [minimal] }).carriers[0], {
      ...minimal,
      systemType: '',
      bindMode: 'transceiver',
      binds: 1,
      windowSize: 50,
      submitsPerSecond: 1000,
      enquireLinkIntervalMs: 30_000,
      responseTimeoutMs: 10_000,
      receiptWindowMs: 172_800_000,
      reconnect: { initialDelayMs: 1000, maxDelayMs: 30_000 },
      routing: { prefixes: [], priority: 0 },
    });
  });

  it('keeps every field given and ignores $comment', () => {
    const carrier = {
      ...minimal,
      $comment: 'the test carrier',
      systemType: 'VMA',
      bindMode: 'transmitter+receiver',
      binds: 3,
      windowSize: 100,
      submitsPerSecond: 250,
      enquireLinkIntervalMs: 5000,
      responseTimeoutMs: 2000,
      receiptWindowMs: 60_000,
      reconnect: { initialDelayMs: 200, maxDelayMs: 5000 },
      routing: { prefixes: ['6681'], priority: 2 },
    };
    const { $comment: _comment, ...expected } = carrier;
    const config = parseCarrierConfig({ $comment: 'file', carriers: [carrier] });
    assert.deepEqual(config.carriers[0], expected);
    assert.ok(Object.isFrozen(config.carriers[0]!.routing.prefixes));
  });

  it('names the missing required fields', () => {
    const problems = problemsOf({ carriers: [{}] });
    for (const field of ['name', 'host', 'port', 'systemId', 'password']) {
      assert.ok(
        problems.some((p) => p.startsWith(`carriers[0].${field}: is required`)),
        `${field} in ${problems.join('\n')}`,
      );
    }
  });

  it('says how to fix each bad field', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'has space' }, /^carriers\[0\]\.name: must be 1-32 letters/],
      [{ host: '' }, /^carriers\[0\]\.host: must not be empty/],
      [{ port: 70000 }, /^carriers\[0\]\.port: must be at most 65535/],
      [{ port: '2775' }, /^carriers\[0\]\.port: must be a number/],
      [{ systemId: 'x'.repeat(16) }, /^carriers\[0\]\.systemId: must be at most 15 .*§4\.1\.1/],
      [{ systemId: '' }, /^carriers\[0\]\.systemId: must not be empty/],
      [{ password: 'x'.repeat(9) }, /^carriers\[0\]\.password: must be at most 8/],
      [{ password: 'pässwort' }, /^carriers\[0\]\.password: must be printable ASCII/],
      [{ systemType: 'x'.repeat(13) }, /^carriers\[0\]\.systemType: must be at most 12/],
      [{ bindMode: 'tx' }, /^carriers\[0\]\.bindMode: must be "transceiver" or/],
      [{ binds: 0 }, /^carriers\[0\]\.binds: must be at least 1/],
      [{ windowSize: 101 }, /^carriers\[0\]\.windowSize: must be at most 100: .*add binds/],
      [{ windowSize: 2.5 }, /^carriers\[0\]\.windowSize: must be a whole number/],
      [{ submitsPerSecond: 0 }, /^carriers\[0\]\.submitsPerSecond: must be at least 1/],
      [{ enquireLinkIntervalMs: 10 }, /^carriers\[0\]\.enquireLinkIntervalMs: must be at least/],
      [{ responseTimeoutMs: -1 }, /^carriers\[0\]\.responseTimeoutMs: must be at least/],
      [
        { reconnect: { initialDelayMs: 5000, maxDelayMs: 100 } },
        /^carriers\[0\]\.reconnect\.maxDelayMs: maxDelayMs must be at least initialDelayMs/,
      ],
      [{ reconnect: 5 }, /^carriers\[0\]\.reconnect: must be an object/],
      [
        { routing: { prefixes: ['08'] } },
        /^carriers\[0\]\.routing\.prefixes\[0\]: .*"668", not "08"/,
      ],
      [
        { routing: { prefixes: ['+668'] } },
        /^carriers\[0\]\.routing\.prefixes\[0\]: must be digits/,
      ],
      [{ routing: { prefixes: '668' } }, /^carriers\[0\]\.routing\.prefixes: must be a list/],
      [{ routing: { priority: 'high' } }, /^carriers\[0\]\.routing\.priority: must be a number/],
      [{ windwSize: 10 }, /^carriers\[0\]: unknown field "windwSize"; check its spelling/],
    ];
    for (const [carrier, expected] of cases) {
      assert.match(problemWith(carrier), expected, JSON.stringify(carrier));
    }
  });

  it('refuses a file that is not a list of uniquely named carriers', () => {
    assert.deepEqual(problemsOf([]), ['the file must hold a JSON object { "carriers": [...] }']);
    assert.deepEqual(problemsOf({}), ['carriers: is required: a list of carriers']);
    assert.deepEqual(problemsOf({ carriers: [] }), ['carriers: must list at least one carrier']);
    assert.deepEqual(problemsOf({ carriers: [minimal, { ...minimal, port: 1 }] }), [
      'carriers[1].name: "a" is already used by another carrier; names must be unique',
    ]);
  });

  it('puts every problem in the error message', () => {
    assert.throws(
      () => parseCarrierConfig({ carriers: [{ ...minimal, port: 0, binds: 0 }] }),
      /^CarrierConfigError: Invalid carrier file: carriers\[0\]\.port: .*; carriers\[0\]\.binds: /,
    );
  });
});

describe('routing', () => {
  it('prefers the longest matching prefix over priority', () => {
    const carriers: [string, string[], number][] = [
      ['broad', ['668'], 0],
      ['narrow', ['6681'], 5],
    ];
    assert.deepEqual(routed(carriers, '66812345678'), ['narrow', 'broad']);
    assert.deepEqual(routed(carriers, '66891234567'), ['broad']);
  });

  it('orders equally long matches by priority, then by file order', () => {
    const carriers: [string, string[], number][] = [
      ['second', ['668'], 2],
      ['first', ['669', '668'], 1],
      ['third', ['668'], 2],
    ];
    assert.deepEqual(routed(carriers, '66812345678'), ['first', 'second', 'third']);
  });

  it('tries carriers without prefixes after every prefix match, as failover', () => {
    const carriers: [string, string[], number][] = [
      ['fallback-b', [], 20],
      ['fallback-a', [], 10],
      ['operator', ['6681'], 99],
      ['other-range', ['6690'], 0],
    ];
    assert.deepEqual(routed(carriers, '66812345678'), ['operator', 'fallback-a', 'fallback-b']);
    assert.deepEqual(routed(carriers, '66901234567'), ['other-range', 'fallback-a', 'fallback-b']);
    assert.deepEqual(routed(carriers, '66611234567'), ['fallback-a', 'fallback-b']);
  });

  it('returns no carrier for a number that no prefix matches and no catch-all takes', () => {
    assert.deepEqual(routed([['operator', ['6681'], 0]], '66991234567'), []);
  });
});
