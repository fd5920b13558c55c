import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySubmitStatus } from './classify-submit-status.js';
import { CommandStatus } from './pdu.js';

describe('classifySubmitStatus', () => {
  it('accepts ESME_ROK only', () => {
    assert.equal(classifySubmitStatus(CommandStatus.ESME_ROK), 'accepted');
  });

  it('reads throttling and a full queue as slow down and retry', () => {
    assert.equal(classifySubmitStatus(0x58), 'throttled');
    assert.equal(classifySubmitStatus(0x14), 'throttled');
  });

  it('reads destination errors as an invalid recipient', () => {
    for (const status of [0x0b, 0x50, 0x51]) assert.equal(classifySubmitStatus(status), 'invalid');
  });

  it('retries the SMSC trouble a careful gateway retries', () => {
    for (const status of [0x08, 0x45, 0x64, 0x04, 0xfe, 0xff])
      assert.equal(classifySubmitStatus(status), 'transient', status.toString(16));
  });

  it('gives up on errors in the message itself, and on codes it does not know', () => {
    for (const status of [0x0a, 0x104, 0x01, 0x43, 0x48, 0x65, 0x3ff, 0x400])
      assert.equal(classifySubmitStatus(status), 'permanent', status.toString(16));
  });
});
