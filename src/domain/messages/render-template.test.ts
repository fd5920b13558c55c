import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../errors.js';
import { renderTemplate } from './render-template.js';

describe('template rendering', () => {
  it('fills every placeholder, with or without inner spaces, repeated or not', () => {
    assert.equal(
      renderTemplate('Hi {{name}}, code {{ code }} ({{name}})', { name: 'Ann', code: 42 }),
      'Hi Ann, code 42 (Ann)',
    );
  });

  it('ignores variables the template does not use', () => {
    assert.equal(renderTemplate('Hello', { extra: 'x' }), 'Hello');
  });

  it('refuses a template whose variables are missing, naming them', () => {
    assert.throws(
      () => renderTemplate('{{a}} {{b}} {{c}}', { b: '1' }),
      (error: unknown) =>
        error instanceof DomainError &&
        error.code === 'TEMPLATE_VARIABLE_MISSING' &&
        error.message.includes('a, c'),
    );
  });

  it('does not treat inherited object properties as variables', () => {
    assert.throws(() => renderTemplate('{{toString}}', {}), DomainError);
  });
});
