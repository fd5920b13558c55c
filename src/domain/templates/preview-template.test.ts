import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { previewTemplate } from './preview-template.js';

describe('previewTemplate', () => {
  it('fills the given variables and leaves the missing ones as written', () => {
    const preview = previewTemplate('สวัสดี {{name}}, รหัส {{ code }}', { name: 'สมชาย' });
    assert.equal(preview.text, 'สวัสดี สมชาย, รหัส {{code}}');
    assert.deepEqual(preview.variables, ['name', 'code']);
    assert.deepEqual(preview.missing, ['code']);
    assert.equal(preview.parts, 1);
  });

  it('counts characters and parts of the filled text as charged', () => {
    const preview = previewTemplate('{{x}}', { x: 'ก'.repeat(71) });
    assert.equal(preview.characters, 71);
    assert.equal(preview.parts, 2);
  });
});
