import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

type Tree = { [key: string]: string | string[] | Tree };

function load(language: string): Tree {
  const url = new URL(`../../web/src/locales/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Tree;
}

/** i18next's plural suffixes: `parts_one`, `parts_other` are the forms of `parts`. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every key path with the shape of its value: `areas.dashboard.plans[4]`, `app.title`. */
function shape(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) return [`${path}[${value.length}]`];
    if (typeof value === 'object') return shape(value, path);
    return [path];
  });
}

/** Every string with its key path. */
function strings(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [[path, value]];
    if (Array.isArray(value)) return value.map((text, i) => [`${path}[${i}]`, text]);
    return strings(value, path);
  });
}

/** The keys as the code asks for them: a plural key once, without its suffix. */
function keys(tree: Tree): string[] {
  return [...new Set(shape(tree).map((path) => path.replace(PLURAL, '')))].sort();
}

/** The placeholders of each key the code asks for, over all its plural forms. */
function placeholders(tree: Tree): string[] {
  const found = new Set<string>();
  for (const [path, text] of strings(tree)) {
    for (const [, name] of text.matchAll(/\{\{(\w+)\}\}/g)) {
      found.add(`${path.replace(PLURAL, '')}:${name}`);
    }
  }
  return [...found].sort();
}

/** The plural forms each plural key has: `{ 'units.parts': ['one', 'other'] }`. */
function pluralForms(tree: Tree): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const path of shape(tree)) {
    const form = PLURAL.exec(path)?.[1];
    if (!form) continue;
    const key = path.replace(PLURAL, '');
    forms.set(key, [...(forms.get(key) ?? []), form].sort());
  }
  return forms;
}

/**
 * Nouns the console counts. A number placeholder followed by one of them ("{{n}} parts") reads
 * "1 parts" for one: such a sentence must be a plural key on `count`.
 */
const COUNTED =
  /\{\{(\w+)\}\}(?: [a-z]+){0,2}? (characters?|letters?|digits?|files?|parts?|recipients?|credits?|numbers?|seconds?|messages?|receipts?|lines?|codes?|dispatchers?|days?)\b/g;

describe('the console translations', () => {
  const en = load('en');
  const th = load('th');

  it('have the same keys in Thai and English, lists of the same length', () => {
    assert.deepEqual(keys(th), keys(en));
  });

  it('use the same placeholders in both languages', () => {
    assert.deepEqual(placeholders(th), placeholders(en));
  });

  it('give each plural key exactly the forms its language counts with: English one and other, Thai other alone', () => {
    for (const [language, tree] of [
      ['en', en],
      ['th', th],
    ] as const) {
      const categories = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories];
      for (const [key, forms] of pluralForms(tree)) {
        assert.deepEqual(forms, categories.sort(), `${language}: ${key}`);
      }
    }
  });

  it('count things through plural keys on `count`, never "{{n}} parts"', () => {
    const wrong: string[] = [];
    for (const [path, text] of strings(en)) {
      for (const [, name, noun] of text.matchAll(COUNTED)) {
        if (name !== 'count' || !PLURAL.test(path)) wrong.push(`${path}: {{${name}}} … ${noun}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('translate into Thai: every Thai string but names and codes has Thai script', () => {
    const untranslated = strings(th)
      .filter(([, text]) => !/[\u0E00-\u0E7F]/.test(text))
      .map(([path]) => path.replace(/\[\d+\]$/, ''));
    // The product's name and the English language's own name stay as they are.
    assert.deepEqual([...new Set(untranslated)], ['app.name', 'language.en']);
  });
});
