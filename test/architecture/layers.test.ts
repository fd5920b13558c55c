import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCycles, reachableFrom, readImportGraph } from '../support/import-graph.js';

/**
 * The layers of Nok and which others each may import (ADR 0036, docs/architecture.md "Layers").
 * A module belongs to the layer of the longest path that starts its own; a layer always
 * imports itself. The composition root may import anything and nothing imports it.
 */
const LAYERS = {
  /** Rules, use cases and the ports they declare: plain TypeScript. */
  domain: { paths: ['src/domain/'], may: [] },
  /** The request and response shapes of /api/v2 and the console, imported by the browser too. */
  contract: { paths: ['src/api/contract/', 'src/api/console/contract/'], may: ['domain'] },
  storage: { paths: ['src/storage/'], may: ['domain'] },
  carriers: { paths: ['src/carriers/'], may: ['domain'] },
  mail: { paths: ['src/mail/'], may: ['domain'] },
  metrics: { paths: ['src/metrics/'], may: ['domain'] },
  logging: { paths: ['src/logging/'], may: [] },
  /** The SMSC simulator speaks SMPP through the carriers' own codec, from the other end. */
  smsc: { paths: ['src/smsc/'], may: ['carriers', 'domain'] },
  api: { paths: ['src/api/'], may: ['domain', 'contract'] },
  dispatcher: { paths: ['src/dispatcher/'], may: ['domain'] },
  scheduler: { paths: ['src/scheduler/'], may: ['domain'] },
  /** The webhook deliverer: event data are the API's own presentations (api/presenters.ts). */
  webhooks: { paths: ['src/webhooks/'], may: ['domain', 'contract', 'api', 'metrics'] },
  /** The operator listener: HTTP like the API (its error answers), serving the metrics. */
  ops: { paths: ['src/ops/'], may: ['domain', 'api', 'metrics'] },
  /** `nok`'s commands, config.ts and settings.ts, main.ts and runtime/ build the parts and start them. */
  root: {
    paths: [
      'src/main.ts',
      'src/config.ts',
      'src/config.test.ts',
      'src/settings.ts',
      'src/runtime/',
      'src/cli/',
    ],
    may: ['*'],
  },
  /** The console in the browser: the server only through its contract. */
  console: { paths: ['web/'], may: ['contract'] },
} satisfies Record<string, { paths: readonly string[]; may: readonly string[] }>;

type LayerName = keyof typeof LAYERS;

/** Packages the domain may use: none is a framework, a driver or a socket. */
const DOMAIN_PACKAGES = new Set(['node:crypto', '@node-rs/argon2', 'otpauth', 'file-type']);
/** And its tests beside the code. */
const DOMAIN_TEST_PACKAGES = new Set(['node:test', 'node:assert', 'fast-check']);
/** What the browser reaches of src/ is built into the console: it may need no more than this. */
const BROWSER_PACKAGES = new Set(['zod']);

const graph = readImportGraph('.', ['src', 'web']);

function layerOf(module: string): LayerName | undefined {
  let found: { name: LayerName; length: number } | undefined;
  for (const [name, layer] of Object.entries(LAYERS) as [LayerName, (typeof LAYERS)[LayerName]][]) {
    for (const path of layer.paths) {
      const matches = path.endsWith('/') ? module.startsWith(path) : module === path;
      if (matches && path.length > (found?.length ?? -1)) found = { name, length: path.length };
    }
  }
  return found?.name;
}

describe('the import graph', () => {
  it('places every module of src/ and web/ in a layer', () => {
    const unplaced = [...graph.keys()].filter((module) => layerOf(module) === undefined);
    assert.deepEqual(unplaced, []);
  });

  it('has each layer import only the layers it may', () => {
    const violations: string[] = [];
    for (const [module, imports] of graph) {
      const from = layerOf(module);
      if (from === undefined) continue;
      const may: readonly string[] = LAYERS[from].may;
      for (const target of imports.files) {
        const to = layerOf(target);
        if (to === from || may.includes('*') || (to && may.includes(to))) continue;
        // A test beside the code may use the test harness.
        if (module.endsWith('.test.ts') && target.startsWith('test/')) continue;
        violations.push(`${module} (${from}) → ${target} (${to ?? 'no layer'})`);
      }
    }
    assert.deepEqual(violations, []);
  });

  it('has no cycle, type-only imports included', () => {
    assert.deepEqual(findCycles(graph), []);
  });

  it('keeps frameworks, drivers and sockets out of the domain', () => {
    const found: string[] = [];
    for (const [module, imports] of graph) {
      if (layerOf(module) !== 'domain') continue;
      const allowed = module.endsWith('.test.ts')
        ? (name: string) => DOMAIN_PACKAGES.has(name) || DOMAIN_TEST_PACKAGES.has(name)
        : (name: string) => DOMAIN_PACKAGES.has(name);
      for (const name of imports.packages) if (!allowed(name)) found.push(`${module} → ${name}`);
    }
    assert.deepEqual(found, []);
  });

  it('lets the browser reach no server module that needs more than zod', () => {
    const fromBrowser = [...graph.keys()].filter((module) => layerOf(module) === 'console');
    const found: string[] = [];
    for (const module of reachableFrom(graph, fromBrowser)) {
      if (layerOf(module) === 'console') continue;
      for (const name of graph.get(module)!.packages) {
        if (!BROWSER_PACKAGES.has(name)) found.push(`${module} → ${name}`);
      }
    }
    assert.deepEqual(found, []);
  });
});
