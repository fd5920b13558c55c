import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CommandStatus, type Pdu } from '../../src/carriers/smpp/pdu.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import type { SmscOptions } from '../../src/smsc/smsc-options.js';
import { RawSmppClient } from './raw-smpp-client.js';

describe('SMSC simulator: binds and session commands', () => {
  let smsc: RunningSmsc | undefined;
  const clients: RawSmppClient[] = [];

  async function start(options: SmscOptions = {}): Promise<RunningSmsc> {
    smsc = await startSmsc({ accounts: [{ systemId: 'nok', password: 'secret' }], ...options });
    return smsc;
  }

  async function client(): Promise<RawSmppClient> {
    const c = await RawSmppClient.connect(smsc!.port);
    clients.push(c);
    return c;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await smsc?.close();
    smsc = undefined;
  });

  it('accepts transmitter, receiver and transceiver binds with the right credentials', async () => {
    await start();
    for (const mode of ['transmitter', 'receiver', 'transceiver'] as const) {
      const response = await (await client()).bind(mode, 'nok', 'secret');
      assert.equal(response.command, `bind_${mode}_resp`);
      assert.equal(response.commandStatus, CommandStatus.ESME_ROK);
      assert.equal(response.systemId, 'NOKSMSC');
    }
    assert.deepEqual(smsc!.stats.binds, { transmitter: 1, receiver: 1, transceiver: 1 });
  });

  it('refuses a wrong password with ESME_RINVPASWD and an unknown system_id with ESME_RINVSYSID', async () => {
    await start();
    const c = await client();
    assert.equal(
      (await c.bind('transceiver', 'nok', 'wrong')).commandStatus,
      CommandStatus.ESME_RINVPASWD,
    );
    assert.equal(
      (await c.bind('transceiver', 'who', 'secret')).commandStatus,
      CommandStatus.ESME_RINVSYSID,
    );
    assert.equal(smsc!.stats.bindsRefused, 2);
  });

  it('refuses every bind with ESME_RBINDFAIL in the bind-refused preset', async () => {
    await start({ preset: 'bind-refused' });
    const response = await (await client()).bind('transmitter', 'nok', 'secret');
    assert.equal(response.commandStatus, CommandStatus.ESME_RBINDFAIL);
  });

  it('refuses binds beyond maxBindsPerSystemId, and takes one again once a bind ends', async () => {
    await start({ maxBindsPerSystemId: 2 });
    const first = await client();
    assert.equal((await first.bind('transmitter', 'nok', 'secret')).commandStatus, 0);
    assert.equal((await (await client()).bind('receiver', 'nok', 'secret')).commandStatus, 0);
    const third = await client();
    assert.equal(
      (await third.bind('transceiver', 'nok', 'secret')).commandStatus,
      CommandStatus.ESME_RBINDFAIL,
    );
    await first.request((sequenceNumber) => ({
      command: 'unbind',
      commandStatus: 0,
      sequenceNumber,
    }));
    assert.equal((await third.bind('transceiver', 'nok', 'secret')).commandStatus, 0);
  });

  it('answers a second bind on one connection with ESME_RALYBND', async () => {
    await start();
    const c = await client();
    await c.bind('transmitter', 'nok', 'secret');
    assert.equal(
      (await c.bind('transmitter', 'nok', 'secret')).commandStatus,
      CommandStatus.ESME_RALYBND,
    );
  });

  it('refuses submit_sm before a bind and on a receiver bind with ESME_RINVBNDSTS', async () => {
    await start();
    const unbound = await client();
    assert.equal(
      (await unbound.submit({ destinationAddr: '66812345678' })).commandStatus,
      CommandStatus.ESME_RINVBNDSTS,
    );
    const receiver = await client();
    await receiver.bind('receiver', 'nok', 'secret');
    assert.equal(
      (await receiver.submit({ destinationAddr: '66812345678' })).commandStatus,
      CommandStatus.ESME_RINVBNDSTS,
    );
  });

  it('answers enquire_link, and unbind with unbind_resp before closing', async () => {
    await start();
    const c = await client();
    await c.bind('transceiver', 'nok', 'secret');
    const link = await c.request((sequenceNumber) => ({
      command: 'enquire_link',
      commandStatus: 0,
      sequenceNumber,
    }));
    assert.equal(link.command, 'enquire_link_resp');
    const unbind = await c.request((sequenceNumber) => ({
      command: 'unbind',
      commandStatus: 0,
      sequenceNumber,
    }));
    assert.equal(unbind.command, 'unbind_resp');
    await c.closed;
  });

  it('answers an unknown command with generic_nack ESME_RINVCMDID and carries on', async () => {
    await start();
    const c = await client();
    const nack = await c.request((sequenceNumber) => ({
      command: 'unknown',
      commandId: 0x00000003, // query_sm, which the simulator does not implement
      commandStatus: 0,
      sequenceNumber,
      body: Buffer.from([0x31, 0, 0, 0, 0]),
    }));
    assert.deepEqual(
      [nack.command, nack.commandStatus],
      ['generic_nack', CommandStatus.ESME_RINVCMDID],
    );
    assert.equal((await c.bind('transceiver', 'nok', 'secret')).commandStatus, 0);
  });

  it('answers a PDU it cannot frame with generic_nack ESME_RINVCMDLEN and closes', async () => {
    await start();
    const c = await client();
    c.writeRaw(Buffer.from([0, 0, 0, 4, 0, 0, 0, 21, 0, 0, 0, 0, 0, 0, 0, 1]));
    const [nack] = await c.waitFor((p: Pdu) => p.command === 'generic_nack');
    assert.equal(nack!.commandStatus, CommandStatus.ESME_RINVCMDLEN);
    await c.closed;
  });

  it('frees its port and connections on close', async () => {
    const running = await start();
    const c = await client();
    await c.bind('transceiver', 'nok', 'secret');
    await running.close();
    await c.closed;
    smsc = undefined;
    assert.equal(running.stats.connections, 0);
  });
});
