// The simulator as the dispatcher meets it: through Nok's own SMPP session, windowed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectSession } from '../../src/carriers/smpp/connect-session.js';
import { encodeMessageText } from '../../src/carriers/smpp/message-text.js';
import { receiptOf } from '../../src/carriers/smpp/receipt-of.js';
import type { SmppSession } from '../../src/carriers/smpp/smpp-session.js';
import type { BindMode } from '../../src/carriers/smpp/pdu.js';
import { startSmsc } from '../../src/smsc/start-smsc.js';

describe('SMSC simulator with our SMPP session', () => {
  it('answers 1,000 windowed submits and delivers each receipt once, on split TX and RX binds', async (t) => {
    // Every part gets a receipt (no noReceiptRatio), some late, some not DELIVRD.
    const smsc = await startSmsc({
      failedRatio: 0.1,
      expiredRatio: 0.05,
      receiptDelayMs: { min: 0, max: 20 },
    });
    t.after(() => smsc.close());
    const receipts = new Map<string, string>();
    let allReceipts: () => void = () => {};
    const expected = new Promise<void>((resolve) => (allReceipts = resolve));
    const open = async (mode: BindMode): Promise<SmppSession> => {
      const session = await connectSession({
        host: '127.0.0.1',
        port: smsc.port,
        mode,
        systemId: 'nok',
        password: 'nok',
        windowSize: 100,
        onDeliver: (pdu) => {
          const receipt = receiptOf(pdu)!;
          assert.ok(!receipts.has(receipt.messageId), `receipt ${receipt.messageId} twice`);
          receipts.set(receipt.messageId, receipt.stat);
          if (receipts.size === 1000) allReceipts();
          return 0;
        },
      });
      t.after(async () => {
        session.destroy();
        await session.closed;
      });
      return session;
    };
    const transmitter = await open('transmitter');
    await open('receiver');

    const text = encodeMessageText('Nok demo', 0);
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        transmitter.submit({
          sourceAddr: 'NOKDEMO',
          destinationAddr: String(66_810_000_000 + i),
          dataCoding: text.dataCoding,
          registeredDelivery: 1,
          shortMessage: text.parts[0]!,
        }),
      ),
    );
    assert.ok(results.every((r) => r.commandStatus === 0));
    await expected;
    assert.deepEqual([...receipts.keys()].sort(), results.map((r) => r.messageId).sort());
    const stats = [...receipts.values()];
    assert.equal(stats.filter((s) => s === 'DELIVRD').length, smsc.stats.receiptsSent.DELIVRD);
    assert.equal(stats.filter((s) => s === 'UNDELIV').length, smsc.stats.receiptsSent.UNDELIV);
    assert.equal(smsc.stats.receiptsResent, 0);
  });
});
