// Writes docs/configuration.md from the settings in src/settings.ts: `npm run docs:config`.
// test/docs/configuration-reference.test.ts fails when the file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { SETTINGS, TOOLING_VARIABLES } from '../src/settings.js';

export const REFERENCE_PATH = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

/** docs/configuration.md as it must read, formatted as Prettier keeps it. */
export async function renderConfigurationReference(): Promise<string> {
  const settings = Object.entries(SETTINGS).map(
    ([name, setting]: [
      string,
      { default?: string; defaultShown?: string; description: string },
    ]) => {
      const shown = setting.defaultShown ?? setting.default;
      return `| \`${name}\` | ${shown === undefined ? '—' : `\`${shown}\``} | ${setting.description} |`;
    },
  );
  const tooling = Object.entries(TOOLING_VARIABLES).map(
    ([name, description]) => `| \`${name}\` | ${description} |`,
  );
  const text = [
    '# Configuration',
    '',
    '<!-- Written by `npm run docs:config` from src/settings.ts: edit the descriptions there. -->',
    '',
    'Every setting is an environment variable prefixed `NOK_`, read once, at start, by',
    '`src/settings.ts`. A bad value stops Nok with a message naming the variable; so does a `NOK_`',
    'variable that is not a setting (a misspelt one), named with the setting closest to it.',
    '',
    '| Variable | Default | Meaning |',
    '| --- | --- | --- |',
    ...settings,
    '',
    '## Read by the tooling, never by Nok',
    '',
    'Nok knows these names and ignores them. `CI=true`, read by the tests too, makes a missing',
    '`NOK_TEST_PG_URL` fail the run.',
    '',
    '| Variable | Meaning |',
    '| --- | --- |',
    ...tooling,
    '',
  ].join('\n');
  return format(text, { ...(await resolveConfig(REFERENCE_PATH)), filepath: REFERENCE_PATH });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REFERENCE_PATH, await renderConfigurationReference());
  console.log(`wrote ${REFERENCE_PATH}`);
}
