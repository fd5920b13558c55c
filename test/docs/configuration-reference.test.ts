import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  REFERENCE_PATH,
  renderConfigurationReference,
} from '../../scripts/configuration-reference.js';
import { SETTINGS } from '../../src/settings.js';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the settings in src/settings.ts', async () => {
    assert.equal(
      readFileSync(REFERENCE_PATH, 'utf8'),
      await renderConfigurationReference(),
      'docs/configuration.md differs from src/settings.ts: run `npm run docs:config`',
    );
  });

  it('lists every setting, with its default', () => {
    const reference = readFileSync(REFERENCE_PATH, 'utf8');
    for (const [name, setting] of Object.entries(SETTINGS)) {
      const row = reference.split('\n').find((line) => line.startsWith(`| \`${name}\` `));
      assert.ok(row, `${name} has a row`);
      const shown = 'defaultShown' in setting ? setting.defaultShown : setting.default;
      if (shown !== undefined) assert.ok(row.includes(`\`${shown}\``), `${name}'s default`);
    }
    assert.match(reference, /NOK_SENDER_DOCUMENT_MAX_BYTES.*`10485760`/);
  });
});
