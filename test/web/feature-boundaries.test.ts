import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const features = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/src/features');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The feature a path under web/src/features belongs to, or null outside them. */
function featureOf(path: string): string | null {
  const inside = relative(features, path);
  return inside.startsWith('..') ? null : inside.split(sep)[0]!;
}

describe('console feature boundaries (STYLE.md)', () => {
  it('lets a feature reach another only through its public index, never its internals', () => {
    const crossings: string[] = [];
    for (const file of sources(features)) {
      const own = featureOf(file);
      const text = readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/\bfrom\s+'(\.[^']*)'/g)) {
        const target = resolve(dirname(file), specifier!);
        const other = featureOf(target);
        if (other === null || other === own) continue;
        if (target !== join(features, other)) {
          crossings.push(`${relative(features, file)} imports ${specifier}`);
        }
      }
    }
    assert.deepEqual(crossings, []);
  });
});
