import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { encodeMessageText } from '../../src/carriers/smpp/message-text.js';
import { TlvTag, type DeliverSmPdu, type Pdu } from '../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../src/carriers/smpp/receipt-of.js';
import { findTlv, readCStringTlv, readIntegerTlv } from '../../src/carriers/smpp/tlv.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import type { SmscOptions } from '../../src/smsc/smsc-options.js';
import { RawSmppClient } from './raw-smpp-client.js';

const RECEIPT_TEXT =
  /^id:(\w+) sub:001 dlvrd:001 submit date:\d{10} done date:\d{10} stat:DELIVRD err:000 text:(.*)$/;

describe('SMSC simulator: receipts', () => {
  let smsc: RunningSmsc | undefined;
  const clients: RawSmppClient[] = [];

  async function start(options: SmscOptions = {}): Promise<RunningSmsc> {
    smsc = await startSmsc({ firstMessageId: 0xabc0, ...options });
    return smsc;
  }

  async function bound(mode?: 'transmitter' | 'receiver' | 'transceiver', systemId?: string) {
    const c = await RawSmppClient.bound(smsc!.port, mode, systemId, systemId);
    clients.push(c);
    return c;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await smsc?.close();
    smsc = undefined;
  });

  it('sends a deliver_sm receipt with both TLVs and the Appendix B text', async () => {
    await start();
    const c = await bound();
    const response = await c.submit({
      destinationAddr: '66812345678',
      shortMessage: Buffer.from('Hello from Nok, a receipt test'),
    });
    assert.equal(response.messageId, 'abc0');
    const [receipt] = await c.receipts(1);
    assert.equal(receipt!.esmClass, 0x04);
    assert.equal(receipt!.sourceAddr, '66812345678');
    assert.equal(receipt!.destinationAddr, 'NOK');
    assert.equal(readCStringTlv(findTlv(receipt!.tlvs, TlvTag.receipted_message_id)!), 'abc0');
    assert.equal(readIntegerTlv(findTlv(receipt!.tlvs, TlvTag.message_state)!), 2);
    const text = RECEIPT_TEXT.exec(receipt!.shortMessage.toString('latin1'));
    assert.deepEqual(text?.slice(1), ['abc0', 'Hello from Nok, a re']);
    assert.deepEqual(
      receiptOf(receipt!) && [receiptOf(receipt!)!.messageId, receiptOf(receipt!)!.stat],
      ['abc0', 'DELIVRD'],
    );
  });

  it('gives decimal message ids when asked', async () => {
    await start({ messageIdFormat: 'decimal', firstMessageId: 900 });
    const c = await bound();
    assert.equal((await c.submit({ destinationAddr: '66812345678' })).messageId, '900');
    assert.equal((await c.submit({ destinationAddr: '66812345679' })).messageId, '901');
    const receipts = await c.receipts(2);
    assert.deepEqual(
      receipts.map((r) => receiptOf(r)!.messageId),
      ['900', '901'],
    );
  });

  it('sends no receipt when registered_delivery does not ask, and on failure only when asked so', async () => {
    await start({ failedRatio: 0.5, seed: 3 });
    const c = await bound();
    const numbers = Array.from({ length: 40 }, (_, i) => String(66_800_000_000 + i));
    await Promise.all(numbers.map((n) => c.submit({ destinationAddr: n, registeredDelivery: 0 })));
    const onFailure = await Promise.all(
      numbers.map((n) => c.submit({ destinationAddr: n, registeredDelivery: 2 })),
    );
    const failed = smsc!.stats.receiptsSent.UNDELIV;
    assert.ok(failed > 5 && failed < 35, `${failed} of 40`);
    const receipts = await c.receipts(failed);
    const ids = new Set(onFailure.map((r) => r.messageId));
    assert.ok(
      receipts.every((r) => ids.has(receiptOf(r)!.messageId) && receiptOf(r)!.stat === 'UNDELIV'),
    );
    assert.equal(smsc!.stats.receiptsSent.DELIVRD, 0);
  });

  it('sends receipts to a receiver bind of the same system_id, not to another system_id', async () => {
    await start({
      accounts: [
        { systemId: 'a', password: 'a' },
        { systemId: 'b', password: 'b' },
      ],
    });
    const otherReceiver = await bound('receiver', 'b');
    const transmitter = await bound('transmitter', 'a');
    const receiver = await bound('receiver', 'a');
    const response = await transmitter.submit({ destinationAddr: '66812345678' });
    const [receipt] = await receiver.receipts(1);
    assert.equal(receiptOf(receipt!)!.messageId, response.messageId);
    assert.equal(transmitter.received.filter((p) => p.command === 'deliver_sm').length, 0);
    assert.equal(otherReceiver.received.filter((p) => p.command === 'deliver_sm').length, 0);
  });

  it('keeps receipts queued while no receiver is bound and sends them when one binds', async () => {
    await start();
    const transmitter = await bound('transmitter');
    const ids = await Promise.all(
      ['66811111111', '66822222222', '66833333333'].map(
        async (n) => (await transmitter.submit({ destinationAddr: n })).messageId,
      ),
    );
    assert.equal(smsc!.stats.receiptsQueued, 3);
    const receiver = await bound('receiver');
    const receipts = await receiver.receipts(3);
    assert.deepEqual(
      receipts.map((r) => receiptOf(r)!.messageId),
      ids,
    );
    assert.equal(smsc!.stats.receiptsQueued, 0);
  });

  it('sends a receipt again when its deliver_sm_resp does not come, up to receiptMaxAttempts', async () => {
    let droppedLogged: (fields: object) => void = () => {};
    const dropped = new Promise<object>((resolve) => (droppedLogged = resolve));
    const logger = {
      info: () => {},
      warn: (fields: object, message: string) => {
        if (message.startsWith('receipt dropped')) droppedLogged(fields);
      },
    };
    await start({ receiptRetryIntervalMs: 20, receiptMaxAttempts: 3, logger });
    const c = await bound();
    c.autoAck = false;
    const { messageId } = await c.submit({ destinationAddr: '66812345678' });
    const receipts = await c.receipts(3);
    assert.deepEqual(
      receipts.map((r) => receiptOf(r)!.messageId),
      [messageId, messageId, messageId],
    );
    assert.equal(new Set(receipts.map((r) => r.sequenceNumber)).size, 3);
    assert.deepEqual(await dropped, { systemId: 'nok', messageId, attempts: 3 });
    assert.equal(smsc!.stats.receiptsDropped, 1);
    assert.equal(smsc!.stats.receiptsResent, 2);
  });

  it('sends a receipt again on another bind when its receiver goes away unacknowledged', async () => {
    await start();
    const transmitter = await bound('transmitter');
    const silent = await bound('receiver');
    silent.autoAck = false;
    const { messageId } = await transmitter.submit({ destinationAddr: '66812345678' });
    await silent.receipts(1);
    await silent.close();
    const receiver = await bound('receiver');
    const [receipt] = await receiver.receipts(1);
    assert.equal(receiptOf(receipt!)!.messageId, messageId);
    assert.equal(smsc!.stats.receiptsResent, 1);
  });

  it('sends the receipt before the submit_sm_resp when receiptBeforeResponse is on', async () => {
    await start({ receiptBeforeResponse: true });
    const c = await bound();
    const response = await c.submit({ destinationAddr: '66812345678' });
    const receiptAt = c.received.findIndex((p) => p.command === 'deliver_sm');
    const responseAt = c.received.findIndex((p) => p.command === 'submit_sm_resp');
    assert.ok(
      receiptAt >= 0 && receiptAt < responseAt,
      `receipt at ${receiptAt}, response at ${responseAt}`,
    );
    assert.equal(receiptOf(c.received[receiptAt] as DeliverSmPdu)!.messageId, response.messageId);
  });

  it('sends a transceiver its own receipts, each after its submit_sm_resp, with other binds open', async () => {
    // A client with several binds (Kannel) matches a receipt to the message id its submitting
    // bind learnt from the submit_sm_resp; on another bind the receipt can overtake that answer.
    await start();
    const binds = await Promise.all([1, 2, 3, 4].map(() => bound()));
    const responses = await Promise.all(
      binds.map((c, b) =>
        Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            c.submit({ destinationAddr: `6681${b}${String(i).padStart(6, '0')}` }),
          ),
        ),
      ),
    );
    await Promise.all(binds.map(roundTrip));
    for (const [b, c] of binds.entries()) {
      const ids = responses[b]!.map((r) => r.messageId);
      const receipts = c.received.filter((p) => p.command === 'deliver_sm');
      assert.deepEqual(receipts.map((r) => receiptOf(r)!.messageId).sort(), [...ids].sort());
      for (const receipt of receipts) {
        const id = receiptOf(receipt)!.messageId;
        const responseAt = c.received.findIndex(
          (p) => p.command === 'submit_sm_resp' && p.messageId === id,
        );
        assert.ok(responseAt < c.received.indexOf(receipt), `receipt ${id} before its response`);
      }
    }
  });

  it('keeps the receipts of a transceiver for it while its window is full, not on another bind', async () => {
    await start();
    const submitter = await bound();
    const other = await bound();
    submitter.autoAck = false;
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        submitter.submit({ destinationAddr: `66812${String(i).padStart(6, '0')}` }),
      ),
    );
    await Promise.all([submitter, other].map(roundTrip));
    const first = submitter.received.filter((p) => p.command === 'deliver_sm');
    assert.equal(first.length, 100, 'a window of 100 unacknowledged receipts');
    assert.equal(other.received.filter((p) => p.command === 'deliver_sm').length, 0);
    assert.equal(smsc!.stats.receiptsQueued, 50);

    for (const receipt of first) submitter.write(deliverSmResp(receipt.sequenceNumber));
    const receipts = await submitter.receipts(150);
    assert.deepEqual(
      receipts.map((r) => receiptOf(r)!.messageId).sort(),
      responses.map((r) => r.messageId).sort(),
    );
    await roundTrip(other);
    assert.equal(other.received.filter((p) => p.command === 'deliver_sm').length, 0);
  });

  it('sends the receipts of a transceiver on another bind once it closes, sent or waiting', async () => {
    await start();
    const submitter = await bound();
    const other = await bound();
    submitter.autoAck = false;
    const responses = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        submitter.submit({ destinationAddr: `66812${String(i).padStart(6, '0')}` }),
      ),
    );
    await Promise.all([submitter, other].map(roundTrip));
    assert.equal(submitter.received.filter((p) => p.command === 'deliver_sm').length, 100);
    assert.equal(other.received.filter((p) => p.command === 'deliver_sm').length, 0);
    await submitter.close();
    const receipts = await other.receipts(101);
    assert.deepEqual(
      receipts.map((r) => receiptOf(r)!.messageId).sort(),
      responses.map((r) => r.messageId).sort(),
    );
    assert.equal(smsc!.stats.receiptsResent, 100);
  });

  it('quotes the decoded text of a UCS-2 part with its UDH removed', async () => {
    await start();
    const c = await bound();
    const encoded = encodeMessageText('Größe '.repeat(20), 7); // part 2 starts at unit 67, in 'Größe'
    await c.submit({
      destinationAddr: '66812345678',
      dataCoding: encoded.dataCoding,
      esmClass: encoded.esmClass,
      shortMessage: encoded.parts[1]!,
    });
    const [receipt] = await c.receipts(1);
    assert.match(receipt!.shortMessage.toString('latin1'), /text:r\?\?e Gr\?\?e Gr\?\?e Gr\?$/);
  });
});

/** An enquire_link answered: whatever the SMSC wrote on this bind before it has arrived. */
async function roundTrip(c: RawSmppClient): Promise<void> {
  await c.request((sequenceNumber) => ({
    command: 'enquire_link',
    commandStatus: 0,
    sequenceNumber,
  }));
}

function deliverSmResp(sequenceNumber: number): Pdu {
  return { command: 'deliver_sm_resp', commandStatus: 0, sequenceNumber, messageId: '' };
}
