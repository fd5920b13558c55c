import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

type Tree = { [key: string]: string | string[] | Tree };

function load(language: string): Tree {
  const url = new URL(`../../web/src/locales/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Tree;
}

/** Every key path with the shape of its value: `areas.dashboard.plans[4]`, `app.title`. */
function shape(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) return [`${path}[${value.length}]`];
    if (typeof value === 'object') return shape(value, path);
    return [path];
  });
}

function placeholders(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      return [...value.matchAll(/\{\{(\w+)\}\}/g)].map((match) => `${path}:${match[1]}`);
    }
    if (Array.isArray(value)) return [];
    return placeholders(value, path);
  });
}

describe('the console translations', () => {
  const en = load('en');
  const th = load('th');

  it('have the same keys in Thai and English, lists of the same length', () => {
    assert.deepEqual(shape(th).sort(), shape(en).sort());
  });

  it('use the same placeholders in both languages', () => {
    assert.deepEqual(placeholders(th).sort(), placeholders(en).sort());
  });

  it('translate into Thai: every Thai string but names and codes has Thai script', () => {
    const untranslated = shape(th).filter((path) => {
      const value = path
        .replace(/\[\d+\]$/, '')
        .split('.')
        .reduce<unknown>((node, key) => (node as Tree)[key], th);
      const texts = Array.isArray(value) ? value : [value as string];
      return texts.some((text) => !/[\u0E00-\u0E7F]/.test(text));
    });
    // The product's name and the English language's own name stay as they are.
    assert.deepEqual(untranslated, ['app.name', 'language.en']);
  });
});
