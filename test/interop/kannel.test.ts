// Our SMSC simulator against an SMPP client we did not write: Kannel's bearerbox (Debian package
// kannel) binds to it as a transceiver (once, then twice), smsbox takes HTTP sendsms requests, and
// every message's delivery report travels back as our receipt → Kannel's DLR → an HTTP call to
// the test's dlr-url.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { SmscOptions } from '../../src/smsc/smsc-options.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import { freePort } from '../support/free-port.js';
import {
  KANNEL_ADMIN_PASSWORD,
  KANNEL_TEST_TUNING,
  SENDSMS_USER,
  kannelConfig,
  type KannelPorts,
  type KannelTuning,
} from './kannel-config.js';
import { PeerProcess } from './peer-process.js';
import { requireCommand } from './require-command.js';
import { waitUntil } from './wait-until.js';

const BATCHES = 10;
const NUMBERS_PER_BATCH = 10;
const STARTUP_MS = 20_000;
const DELIVERY_MS = 30_000;

interface Batch {
  readonly numbers: readonly string[];
  readonly text: string;
  /** Kannel's coding: 0 GSM 7-bit (sent as data_coding 0), 2 UCS-2 (data_coding 8). */
  readonly coding: 0 | 2;
}

/** Nine batches of ten numbers in GSM text and one in Thai (UCS-2): 100 messages. */
function batches(): Batch[] {
  return Array.from({ length: BATCHES }, (_, b) => ({
    numbers: Array.from(
      { length: NUMBERS_PER_BATCH },
      (_, i) => `66812${String(b * NUMBERS_PER_BATCH + i).padStart(6, '0')}`,
    ),
    text: b === BATCHES - 1 ? `ทดสอบ Kannel ชุดที่ ${b}` : `Kannel to Nok, batch ${b}`,
    coding: b === BATCHES - 1 ? 2 : 0,
  }));
}

interface Dlr {
  readonly batch: string | null;
  readonly type: string | null;
  readonly to: string | null;
  readonly smscId: string | null;
}

/** Records every DLR Kannel's smsbox calls the dlr-url with. */
async function startDlrReceiver(): Promise<{ server: Server; port: number; dlrs: Dlr[] }> {
  const dlrs: Dlr[] = [];
  const server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    dlrs.push({
      batch: query.get('batch'),
      type: query.get('type'),
      to: query.get('to'),
      smscId: query.get('smsc-id'),
    });
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, dlrs };
}

/** Kannel's status page (the admin HTTP interface), or '' while it does not answer. */
async function kannelStatus(ports: KannelPorts): Promise<string> {
  const url = `http://127.0.0.1:${ports.admin}/status.xml?password=${KANNEL_ADMIN_PASSWORD}`;
  try {
    const response = await fetch(url);
    return await response.text();
  } catch {
    return '';
  }
}

/**
 * The sendsms request for a batch: every number in one request, separated by spaces, a delivered
 * or failed report asked for each (dlr-mask 1 + 2), reported to the test's receiver.
 */
function sendsmsUrl(ports: KannelPorts, dlrPort: number, batch: Batch, index: number): string {
  const query = new URLSearchParams({
    ...SENDSMS_USER,
    from: 'NOK',
    to: batch.numbers.join(' '),
    text: batch.text,
    coding: String(batch.coding),
    charset: 'UTF-8',
    'dlr-mask': '3',
    // Kannel fills in %d (the report type), %p (the message's receiver) and %F (the SMSC's id).
    'dlr-url': `http://127.0.0.1:${dlrPort}/dlr?batch=${index}&type=%d&to=%p&smsc-id=%F`,
  });
  return `http://127.0.0.1:${ports.sendsms}/cgi-bin/sendsms?${query}`;
}

interface KannelRig {
  readonly smsc: RunningSmsc;
  readonly receiver: { port: number; dlrs: Dlr[] };
  readonly ports: KannelPorts;
  readonly dir: string;
  /** The last lines of Kannel's logs, for a failure message. */
  readonly logs: () => string;
}

/**
 * Our SMSC (receipts 200 ms after the submit unless `smscOptions` say otherwise), a DLR
 * receiver, and Kannel's bearerbox bound to the SMSC `tuning.binds` times as a transceiver, with
 * its smsbox connected; all stopped after the test.
 */
async function startKannel(
  t: TestContext,
  tuning: KannelTuning,
  smscOptions: SmscOptions = {},
): Promise<KannelRig> {
  const bearerboxCommand = requireCommand('bearerbox', 'kannel');
  const smsboxCommand = requireCommand('smsbox', 'kannel');
  const cleanups: (() => Promise<unknown>)[] = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const dir = await mkdtemp(join(tmpdir(), 'nok-kannel-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const smsc = await startSmsc({
    preset: 'happy',
    messageIdFormat: 'hex',
    receiptDelayMs: 200,
    recordSubmits: true,
    ...smscOptions,
  });
  cleanups.push(() => smsc.close());
  const receiver = await startDlrReceiver();
  cleanups.push(
    () =>
      new Promise((resolve) => {
        receiver.server.close(resolve);
        receiver.server.closeAllConnections();
      }),
  );

  const ports = { admin: await freePort(), smsbox: await freePort(), sendsms: await freePort() };
  const configFile = join(dir, 'kannel.conf');
  await writeFile(configFile, kannelConfig(dir, smsc.port, ports, tuning));
  const logs = () => kannelLogs(dir);

  // -v 3: errors only on stderr; the log files in `dir` have the rest.
  const bearerbox = await PeerProcess.start('bearerbox', bearerboxCommand, ['-v', '3', configFile]);
  cleanups.push(() => bearerbox.stop());
  await waitUntil(
    () => smsc.stats.binds.transceiver >= tuning.binds || !bearerbox.running,
    STARTUP_MS,
    () =>
      `${smsc.stats.binds.transceiver} of ${tuning.binds} binds from bearerbox\n${bearerbox.output()}\n${logs()}`,
  );
  assert.ok(bearerbox.running, `bearerbox ended:\n${bearerbox.output()}\n${logs()}`);
  assert.equal(smsc.stats.bindsRefused, 0);

  const smsbox = await PeerProcess.start('smsbox', smsboxCommand, ['-v', '3', configFile]);
  cleanups.push(() => smsbox.stop());
  await waitUntil(
    async () => (await kannelStatus(ports)).includes('<type>smsbox</type>') || !smsbox.running,
    STARTUP_MS,
    () => `smsbox not connected to bearerbox\n${smsbox.output()}\n${logs()}`,
  );
  assert.ok(smsbox.running, `smsbox ended:\n${smsbox.output()}\n${logs()}`);
  return { smsc, receiver, ports, dir, logs };
}

describe('Kannel (bearerbox and smsbox) against our SMSC', () => {
  it('sends 100 messages over SMPP and reports a delivered DLR for each', async (t) => {
    const { smsc, receiver, ports, dir, logs } = await startKannel(t, KANNEL_TEST_TUNING);

    const sent = batches();
    for (const [index, batch] of sent.entries()) {
      const response = await fetch(sendsmsUrl(ports, receiver.port, batch, index));
      const body = await response.text();
      assert.equal(response.status, 202, `sendsms for batch ${index}: ${body}\n${logs()}`);
    }

    const total = BATCHES * NUMBERS_PER_BATCH;
    await waitUntil(
      () => receiver.dlrs.length >= total,
      DELIVERY_MS,
      () =>
        `${receiver.dlrs.length} of ${total} DLRs; SMSC ${JSON.stringify({ ...smsc.stats, submits: smsc.stats.submits.length })}\n${logs()}`,
    );

    // Our SMSC got every message once, to the right number, with the right text and coding.
    const batchOf = new Map(sent.flatMap((batch) => batch.numbers.map((to) => [to, batch])));
    const submits = smsc.stats.submits;
    assert.equal(submits.length, total);
    assert.equal(new Set(submits.map((submit) => submit.destinationAddr)).size, total);
    for (const submit of submits) {
      const batch = batchOf.get(submit.destinationAddr);
      assert.ok(batch, `a submit to a number never sent to: ${submit.destinationAddr}`);
      assert.equal(submit.text, batch.text);
      assert.equal(submit.dataCoding, batch.coding === 2 ? 8 : 0);
      assert.equal(submit.sourceAddr, 'NOK');
      assert.equal(submit.registeredDelivery & 0x01, 0x01, 'Kannel asks for a receipt');
    }

    // Every receipt reached Kannel, was acknowledged, and became a delivered DLR (type 1) for
    // its own message: Kannel matched our hex id in the receipt to the one in submit_sm_resp.
    assert.equal(smsc.stats.receiptsSent.DELIVRD, total);
    await waitUntil(
      () => smsc.stats.receiptsAcknowledged === total,
      DELIVERY_MS,
      () => `${smsc.stats.receiptsAcknowledged} of ${total} receipts acknowledged`,
    );
    const messageIdOf = new Map(
      submits.map((submit) => [submit.destinationAddr, submit.messageId]),
    );
    assert.equal(receiver.dlrs.length, total, 'one DLR per message, no more');
    const reported = new Set<string>();
    for (const dlr of receiver.dlrs) {
      assert.equal(dlr.type, '1', `DLR ${JSON.stringify(dlr)}`);
      const batch = sent[Number(dlr.batch)];
      assert.ok(batch?.numbers.includes(dlr.to!), `DLR ${JSON.stringify(dlr)}`);
      // msg-id-type 0x03: Kannel reads our hex id as a number and reports it in decimal.
      assert.equal(dlr.smscId, BigInt(`0x${messageIdOf.get(dlr.to!)}`).toString());
      reported.add(dlr.to!);
    }
    assert.equal(reported.size, total);

    // Kannel's enquire_link, answered: the bind it made at the start is the one it still has.
    await waitUntil(
      () => kannelLog(dir, 'bearerbox.log').includes('type_name: enquire_link_resp'),
      DELIVERY_MS,
      () => `no enquire_link_resp in bearerbox's log\n${logs()}`,
    );
    assert.equal(smsc.stats.binds.transceiver, 1);
    assert.equal(smsc.stats.connections, 1);

    // Kannel counts a message sent when its submit_sm_resp says ESME_ROK.
    const status = await kannelStatus(ports);
    const smscStatus = status.slice(status.indexOf('<smscs>'));
    assert.match(smscStatus, new RegExp(`<sent>${total}</sent>`), status);
    assert.match(smscStatus, /<failed>0<\/failed>/, status);
  });

  it('reports a delivered DLR for each of 1,000 messages sent over two transceiver binds', async (t) => {
    // Kannel reads each bind on a thread of its own and files a message for its DLR when that
    // bind reads the submit_sm_resp; a receipt that comes on the other bind before that finds
    // nothing and is dropped. Receipts at once, as in the happy preset the bench runs, so that
    // each follows its submit_sm_resp closely.
    const binds = 2;
    const { smsc, receiver, ports, dir, logs } = await startKannel(
      t,
      { ...KANNEL_TEST_TUNING, binds },
      { receiptDelayMs: 0 },
    );

    const sent: Batch[] = Array.from({ length: 10 }, (_, b) => ({
      numbers: Array.from(
        { length: 100 },
        (_, i) => `66813${String(b * 100 + i).padStart(6, '0')}`,
      ),
      text: `Kannel to Nok over ${binds} binds, batch ${b}`,
      coding: 0,
    }));
    const total = sent.length * 100;
    await Promise.all(
      sent.map(async (batch, index) => {
        const response = await fetch(sendsmsUrl(ports, receiver.port, batch, index));
        const body = await response.text();
        assert.equal(response.status, 202, `sendsms for batch ${index}: ${body}\n${logs()}`);
      }),
    );
    await waitUntil(
      () => receiver.dlrs.length >= total,
      DELIVERY_MS,
      () =>
        `${receiver.dlrs.length} of ${total} DLRs, ${droppedReceipts(dir)} receipts dropped by Kannel; SMSC ${JSON.stringify({ ...smsc.stats, submits: smsc.stats.submits.length })}\n${logs()}`,
    );

    const messageIdOf = new Map(
      smsc.stats.submits.map((submit) => [submit.destinationAddr, submit.messageId]),
    );
    assert.equal(messageIdOf.size, total);
    assert.equal(receiver.dlrs.length, total, 'one DLR per message, no more');
    for (const dlr of receiver.dlrs) {
      assert.equal(dlr.type, '1', `DLR ${JSON.stringify(dlr)}`);
      assert.equal(dlr.smscId, BigInt(`0x${messageIdOf.get(dlr.to!)}`).toString());
    }
    assert.equal(new Set(receiver.dlrs.map((dlr) => dlr.to)).size, total);
    assert.equal(droppedReceipts(dir), 0);
    await waitUntil(
      () => smsc.stats.receiptsAcknowledged === total,
      DELIVERY_MS,
      () => `${smsc.stats.receiptsAcknowledged} of ${total} receipts acknowledged`,
    );
    assert.equal(smsc.stats.binds.transceiver, binds);
    assert.equal(smsc.stats.connections, binds);

    // Both binds carried messages (Kannel sends each on its least loaded one).
    const status = await kannelStatus(ports);
    const sentPerBind = [...status.matchAll(/<smsc>.*?<sms>.*?<sent>(\d+)<\/sent>/gs)].map((m) =>
      Number(m[1]),
    );
    assert.equal(sentPerBind.length, binds, status);
    assert.equal(
      sentPerBind.reduce((a, b) => a + b),
      total,
      status,
    );
    assert.ok(
      sentPerBind.every((count) => count > 0),
      status,
    );
  });
});

/** The last lines of bearerbox's and smsbox's log files, for a failure message. */
function kannelLogs(dir: string): string {
  return ['bearerbox.log', 'smsbox.log']
    .map((name) => {
      const lines = kannelLog(dir, name).split('\n').slice(-30);
      return `${name} (last 30 lines):\n${lines.join('\n')}`;
    })
    .join('\n');
}

function kannelLog(dir: string, name: string): string {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch {
    return '';
  }
}

/** Receipts bearerbox answered but dropped, finding no message waiting for their DLR. */
function droppedReceipts(dir: string): number {
  return kannelLog(dir, 'bearerbox.log').match(/got DLR but could not find message/g)?.length ?? 0;
}
