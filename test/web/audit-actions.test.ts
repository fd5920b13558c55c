import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AUDIT_ACTION_FAMILIES, AUDIT_ACTIONS } from '../../src/domain/audit/audit-actions.js';

type Tree = { [key: string]: string | Tree };

function english(): Tree {
  const url = new URL('../../web/src/locales/en.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { audit: Tree }).audit;
}

function at(tree: Tree, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);
}

describe('the audit actions', () => {
  const audit = english();

  it('each has a name people read in the console (Thai follows: the translations test)', () => {
    const missing = AUDIT_ACTIONS.filter((action) => {
      const [area, verb] = action.split('.') as [string, string];
      return typeof at(audit, ['actions', area, verb]) !== 'string';
    });
    assert.deepEqual(missing, []);
  });

  it('each area is a family of the log’s filter, with its name', () => {
    for (const action of AUDIT_ACTIONS) {
      assert.ok(AUDIT_ACTION_FAMILIES.includes(`${action.split('.')[0]!}.`), action);
    }
    const unnamed = AUDIT_ACTION_FAMILIES.filter(
      (family) => typeof at(audit, ['families', family.slice(0, -1)]) !== 'string',
    );
    assert.deepEqual(unnamed, []);
  });

  it('the console names no action the log cannot hold', () => {
    const named = Object.entries(at(audit, ['actions']) as Record<string, Tree>).flatMap(
      ([area, verbs]) => Object.keys(verbs).map((verb) => `${area}.${verb}`),
    );
    assert.deepEqual(
      named.filter((action) => !(AUDIT_ACTIONS as readonly string[]).includes(action)),
      [],
    );
  });
});
