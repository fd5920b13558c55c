// Our session against an SMSC we did not write: the npm `smpp` package's server, answering what a
// plain SMSC answers (the package answers nothing by itself).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import smpp from 'smpp';
import { receiptOf } from '../../../src/carriers/smpp/receipt-of.js';
import { connectSession } from '../../../src/carriers/smpp/connect-session.js';
import type { DeliverSmPdu } from '../../../src/carriers/smpp/pdu.js';
import { message } from './session-fixture.js';

describe('SMPP session against the npm smpp package as SMSC', () => {
  it('binds, submits within its window, takes a receipt and unbinds', async (t) => {
    let inFlight = 0;
    let maxInFlight = 0;
    const peers: smpp.Session[] = [];
    const server = smpp.createServer((peer) => {
      peers.push(peer);
      peer.on('error', () => undefined);
      peer.on('bind_transceiver', (pdu: smpp.PDU) => peer.send(pdu.response({ system_id: 'PKG' })));
      peer.on('enquire_link', (pdu: smpp.PDU) => peer.send(pdu.response()));
      peer.on('unbind', (pdu: smpp.PDU) => {
        peer.send(pdu.response());
        peer.close();
      });
      peer.on('submit_sm', (pdu: smpp.PDU) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        // Answer on a later turn, so that submits pile up to the window.
        setImmediate(() => {
          inFlight--;
          peer.send(pdu.response({ message_id: `pkg-${pdu.sequence_number}` }));
        });
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(async () => {
      for (const peer of peers) peer.destroy();
      server.close();
      await once(server, 'close');
    });

    const receipts: DeliverSmPdu[] = [];
    const session = await connectSession({
      host: '127.0.0.1',
      port: (server.address() as { port: number }).port,
      mode: 'transceiver',
      systemId: 'nok',
      password: 'secret',
      windowSize: 10,
      responseTimeoutMs: 1_000,
      onDeliver: (pdu) => {
        receipts.push(pdu);
        return 0;
      },
    });
    t.after(() => session.destroy());

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => session.submit(message(i))),
    );
    assert.ok(results.every((result) => result.commandStatus === 0));
    assert.equal(new Set(results.map((result) => result.messageId)).size, 200);
    assert.ok(maxInFlight <= 10, `in flight at the SMSC: ${maxInFlight}`);

    const peer = peers[0]!;
    const acknowledged = once(peer, 'deliver_sm_resp');
    peer.send(
      new smpp.PDU('deliver_sm', {
        source_addr: '66812000001',
        destination_addr: 'NOK',
        esm_class: 0x04,
        data_coding: 0,
        short_message: Buffer.from(`id:${results[0]!.messageId} stat:DELIVRD err:000`),
        receipted_message_id: results[0]!.messageId,
        message_state: 2,
      }),
    );
    const [response] = (await acknowledged) as [smpp.PDU];
    assert.equal(response.command_status, 0);
    assert.equal(receiptOf(receipts[0]!)?.messageId, results[0]!.messageId);

    await session.unbind(1_000);
    assert.equal((await session.closed).reason, 'local-unbind');
  });
});
