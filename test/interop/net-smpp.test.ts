// Our SMPP client session against an SMSC we did not write: a small server on Net::SMPP, the
// Perl SMPP 3.4 implementation Debian ships as libnet-smpp-perl (net-smpp-server.pl beside this
// file). Net::SMPP decodes every PDU we send and encodes every PDU we read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connectSession } from '../../src/carriers/smpp/connect-session.js';
import { decodeMessageText, encodeMessageText } from '../../src/carriers/smpp/message-text.js';
import { CommandStatus, type DeliverSmPdu } from '../../src/carriers/smpp/pdu.js';
import { receiptOf } from '../../src/carriers/smpp/receipt-of.js';
import type { SubmitResult } from '../../src/carriers/smpp/session-options.js';
import type { ShortMessageInput } from '../../src/carriers/smpp/short-message-fields.js';
import { PeerProcess, fieldsOf } from './peer-process.js';
import { requireCommand, requirePerlModule } from './require-command.js';

const SERVER_SCRIPT = fileURLToPath(new URL('net-smpp-server.pl', import.meta.url));
const REFUSED_PREFIX = '66899';
const WAIT_MS = 10_000;

interface Part {
  readonly input: ShortMessageInput;
  /** The text the part carries, without its UDH. */
  readonly text: string;
}

/**
 * 96 single GSM parts, one UCS-2 part and a GSM message in 3 concatenated parts (Nok splits at
 * 67 units a part): 100 parts.
 */
function partsToSend(): Part[] {
  const messages = [
    ...Array.from({ length: 96 }, (_, i) => ({
      to: `66812${String(i).padStart(6, '0')}`,
      content: `Interop message ${i}: hello`,
    })),
    { to: '66813000001', content: 'ทดสอบ Nok ข้อความภาษาไทย' },
    { to: '66813000002', content: 'A long message. '.repeat(12).trim() },
  ];
  return messages.flatMap(({ to, content }, i) => {
    const encoded = encodeMessageText(content, i % 256);
    return encoded.parts.map((payload) => ({
      input: {
        sourceAddr: 'NOK',
        destinationAddr: to,
        dataCoding: encoded.dataCoding,
        esmClass: encoded.esmClass,
        registeredDelivery: 1,
        shortMessage: payload,
      },
      text: decodeMessageText(encoded.dataCoding, payload, encoded.esmClass).text,
    }));
  });
}

describe('SMPP session against Net::SMPP (libnet-smpp-perl) as SMSC', () => {
  it('binds, submits 100 parts, takes a receipt for each, hears 0x0B for a refused prefix, keeps the link both ways and unbinds', async (t) => {
    const perl = requireCommand('perl', 'perl-base');
    requirePerlModule('Net::SMPP', 'libnet-smpp-perl');
    const server = await PeerProcess.start('Net::SMPP server', perl, [
      SERVER_SCRIPT,
      '--refuse-prefix',
      REFUSED_PREFIX,
    ]);
    t.after(() => server.stop());
    const port = Number(
      fieldsOf(await server.waitForLine((l) => l.startsWith('listening'), WAIT_MS, 'port')).port,
    );

    const parts = partsToSend();
    assert.equal(parts.length, 100);
    const receipts: DeliverSmPdu[] = [];
    let allReceipts: () => void = () => undefined;
    const receiptsIn = new Promise<void>((resolve) => (allReceipts = resolve));
    const session = await connectSession({
      host: '127.0.0.1',
      port,
      mode: 'transceiver',
      systemId: 'nok',
      password: 'secret',
      systemType: 'interop',
      windowSize: 10,
      responseTimeoutMs: WAIT_MS,
      // Short, so that the link goes quiet long enough for our enquire_link once the work is done.
      enquireLinkIntervalMs: 300,
      onDeliver: (pdu) => {
        receipts.push(pdu);
        if (receipts.length === parts.length) allReceipts();
        return CommandStatus.ESME_ROK;
      },
    });
    t.after(async () => {
      session.destroy();
      await session.closed;
    });
    const bound = fieldsOf(await server.waitForLine((l) => l.startsWith('bound'), WAIT_MS, 'bind'));
    assert.deepEqual(bound, { interface_version: '52', system_id: 'nok', system_type: 'interop' });
    // The server's own enquire_link, answered by our session.
    await server.waitForLine(
      (l) => l.startsWith('enquire_link_resp'),
      WAIT_MS,
      'enquire_link_resp',
    );

    const refused = session.submit({
      sourceAddr: 'NOK',
      destinationAddr: `${REFUSED_PREFIX}1234567`,
      dataCoding: 0,
      registeredDelivery: 1,
      shortMessage: Buffer.from('refused'),
    });
    const results = await Promise.all(parts.map((part) => session.submit(part.input)));
    assert.deepEqual(await refused, {
      commandStatus: CommandStatus.ESME_RINVDSTADR,
      messageId: '',
    });
    assertAccepted(results);

    // Net::SMPP decoded each submit_sm to the fields we encoded. The server prints a submit's line
    // after answering it: wait for the last one before reading them all.
    const lastId = results.at(-1)!.messageId;
    await server.waitForLine(
      (l) => l.startsWith('submit\t') && fieldsOf(l).id === lastId,
      WAIT_MS,
      'the last submit line',
    );
    const submitLines = server.lines.filter((line) => line.startsWith('submit\t')).map(fieldsOf);
    const seen = new Map(submitLines.map((fields) => [fields.id, fields]));
    parts.forEach((part, i) => {
      const fields = seen.get(results[i]!.messageId);
      assert.ok(fields, `no submit line for ${results[i]!.messageId}`);
      assert.equal(fields.status, '0');
      assert.equal(fields.source, 'NOK');
      assert.equal(fields.dest, part.input.destinationAddr);
      assert.equal(Number(fields.dc), part.input.dataCoding);
      assert.equal(Number(fields.esm), part.input.esmClass);
      assert.equal(Number(fields.rd), 1);
      assert.equal(fields.sm, part.input.shortMessage.toString('hex'));
      const sm = Buffer.from(fields.sm!, 'hex');
      assert.equal(decodeMessageText(Number(fields.dc), sm, Number(fields.esm)).text, part.text);
    });
    assert.equal(submitLines.filter((fields) => fields.status === '11').length, 1);

    await withTimeout(receiptsIn, WAIT_MS, () => `${receipts.length} of 100 receipts`);
    const byId = new Map(results.map((result, i) => [result.messageId, parts[i]!]));
    for (const pdu of receipts) {
      const receipt = receiptOf(pdu);
      assert.ok(receipt, `not a receipt: ${pdu.shortMessage.toString('latin1')}`);
      assert.equal(receipt.stat, 'DELIVRD');
      assert.equal(receipt.intermediate, false);
      // The TLV and the Appendix B text agree.
      assert.equal(receipt.text?.id, receipt.messageId);
      assert.equal(receipt.text?.stat, 'DELIVRD');
      const part = byId.get(receipt.messageId);
      assert.ok(part, `a receipt for an id we were never given: ${receipt.messageId}`);
      assert.equal(pdu.sourceAddr, part.input.destinationAddr);
      assert.equal(pdu.destinationAddr, 'NOK');
      byId.delete(receipt.messageId);
    }
    assert.equal(byId.size, 0, `no receipt for ${[...byId.keys()].join(', ')}`);
    await server.waitForLine(
      () => countLines(server, 'deliver_sm_resp\t') === parts.length,
      WAIT_MS,
      'a deliver_sm_resp for every receipt',
    );
    const deliverResponses = server.lines.filter((line) => line.startsWith('deliver_sm_resp\t'));
    assert.ok(deliverResponses.every((line) => fieldsOf(line).status === '0'));

    // Our enquire_link once the link is quiet, answered by Net::SMPP: the session stays bound.
    await server.waitForLine((l) => l.startsWith('enquire_link\t'), WAIT_MS, 'our enquire_link');
    assert.equal(session.bound, true);

    await session.unbind(WAIT_MS);
    assert.equal((await session.closed).reason, 'local-unbind');
    await server.waitForLine((l) => l.startsWith('unbind'), WAIT_MS, 'unbind');
    await server.waitForLine((l) => l === 'closed', WAIT_MS, 'the connection closed');
  });
});

function assertAccepted(results: readonly SubmitResult[]): void {
  for (const result of results) {
    assert.equal(result.commandStatus, CommandStatus.ESME_ROK);
    assert.match(result.messageId, /^NS\d{8}$/);
  }
  assert.equal(new Set(results.map((result) => result.messageId)).size, results.length);
}

function countLines(peer: PeerProcess, prefix: string): number {
  return peer.lines.filter((line) => line.startsWith(prefix)).length;
}

async function withTimeout(
  promise: Promise<void>,
  timeoutMs: number,
  progress: () => string,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`only ${progress()} within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
