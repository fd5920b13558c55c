import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CarrierConfigError,
  loadCarrierConfig,
  routeFor,
} from '../../src/carriers/carrier-config.js';

describe('loading the carrier file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nok-carriers-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads the documented example, two carriers in failover order', async () => {
    const config = await loadCarrierConfig('docs/carriers.example.json');
    assert.deepEqual(
      config.carriers.map((c) => [c.name, c.bindMode, c.binds]),
      [
        ['operator-a', 'transmitter+receiver', 2],
        ['aggregator', 'transceiver', 4],
      ],
    );
    assert.deepEqual(
      routeFor(config, '66812345678').map((c) => c.name),
      ['operator-a', 'aggregator'],
    );
    assert.deepEqual(
      routeFor(config, '66612345678').map((c) => c.name),
      ['aggregator'],
    );
  });

  it('names the file and the setting when the file cannot be read', async () => {
    const path = join(dir, 'missing.json');
    await assert.rejects(loadCarrierConfig(path), (error: unknown) => {
      assert.ok(error instanceof CarrierConfigError);
      assert.match(
        error.message,
        new RegExp(`^Cannot read the carrier file ${path} .*NOK_CARRIERS_FILE`),
      );
      return true;
    });
  });

  it('says where the JSON is broken', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{ "carriers": [ }');
    await assert.rejects(
      loadCarrierConfig(path),
      /^CarrierConfigError: The carrier file .* is not valid JSON/,
    );
  });

  it('names the file and each bad field', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(
      path,
      JSON.stringify({
        carriers: [
          { name: 'x', host: 'h', port: 1, systemId: 's', password: 'p', windowSize: 500 },
        ],
      }),
    );
    await assert.rejects(loadCarrierConfig(path), (error: unknown) => {
      assert.ok(error instanceof CarrierConfigError);
      assert.match(
        error.message,
        new RegExp(
          `^Invalid carrier file ${path}: carriers\\[0\\]\\.windowSize: must be at most 100`,
        ),
      );
      assert.equal(error.problems.length, 1);
      return true;
    });
  });
});
