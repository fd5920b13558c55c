import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderTemplate } from '../messages/render-template.js';
import { templateVariables } from './template-variables.js';

describe('templateVariables', () => {
  it('lists each placeholder once, in order of first appearance', () => {
    assert.deepEqual(templateVariables('Hi {{name}}, code {{ code }} for {{name}}'), [
      'name',
      'code',
    ]);
  });

  it('finds no variables in a body without placeholders or with malformed ones', () => {
    assert.deepEqual(templateVariables('Hello {name} {{}} {{two words}}'), []);
  });

  it('lists exactly the variables that rendering requires', () => {
    const body = 'Dear {{first.name}}, your {{order-id}} ships {{day_1}}';
    const variables = templateVariables(body);
    const values = Object.fromEntries(variables.map((name) => [name, 'x']));
    assert.equal(renderTemplate(body, values), 'Dear x, your x ships x');
  });
});
