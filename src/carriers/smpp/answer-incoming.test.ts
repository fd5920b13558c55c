import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerIncoming } from './answer-incoming.js';
import { CommandId, CommandStatus } from './pdu.js';
import { PduDecodeError } from './smpp-errors.js';

describe('answerIncoming', () => {
  it('answers enquire_link and nacks an unknown command_id', () => {
    assert.deepEqual(
      answerIncoming({ command: 'enquire_link', commandStatus: 0, sequenceNumber: 4 }),
      {
        command: 'enquire_link_resp',
        commandStatus: 0,
        sequenceNumber: 4,
      },
    );
    assert.deepEqual(
      answerIncoming({
        command: 'unknown',
        commandId: 0x103,
        commandStatus: 0,
        sequenceNumber: 5,
        body: Buffer.alloc(0),
      }),
      { command: 'generic_nack', commandStatus: CommandStatus.ESME_RINVCMDID, sequenceNumber: 5 },
    );
  });

  it("answers an SMSC's own commands with their response and ESME_RINVBNDSTS", () => {
    const answer = answerIncoming({
      command: 'bind_transceiver',
      commandStatus: 0,
      sequenceNumber: 6,
      systemId: 'x',
      password: 'y',
      systemType: '',
      interfaceVersion: 0x34,
      addrTon: 0,
      addrNpi: 0,
      addressRange: '',
    });
    assert.equal(answer?.command, 'bind_transceiver_resp');
    assert.equal(answer?.commandStatus, CommandStatus.ESME_RINVBNDSTS);
  });

  it('answers a request whose body did not decode with its own response and the error status', () => {
    const broken = new PduDecodeError(CommandId.deliver_sm, 7, CommandStatus.ESME_RINVSRCADR, 'x');
    assert.deepEqual(answerIncoming(broken), {
      command: 'deliver_sm_resp',
      commandStatus: CommandStatus.ESME_RINVSRCADR,
      sequenceNumber: 7,
      messageId: '',
    });
    const odd = new PduDecodeError(0x00000103, 8, CommandStatus.ESME_RINVCMDLEN, 'x');
    assert.equal(answerIncoming(odd)?.command, 'generic_nack');
  });

  it('owes nothing to a response', () => {
    assert.equal(
      answerIncoming({ command: 'generic_nack', commandStatus: 3, sequenceNumber: 1 }),
      null,
    );
    assert.equal(
      answerIncoming(
        new PduDecodeError(CommandId.submit_sm_resp, 9, CommandStatus.ESME_RSYSERR, 'x'),
      ),
      null,
    );
  });
});
