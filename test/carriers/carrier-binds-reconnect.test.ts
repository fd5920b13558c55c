import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { CarrierDownError } from '../../src/carriers/carrier-down-error.js';
import { CommandStatus } from '../../src/carriers/smpp/pdu.js';
import { FakeClock } from '../support/fake-clock.js';
import { message } from './smpp/session-fixture.js';
import {
  INFO,
  WARN,
  activeHandles,
  carrierAgainstSmsc,
  isMsg,
  startedCarrier,
} from './carrier-binds-fixture.js';

describe('Carrier binds: reconnecting and stopping', () => {
  it('reopens binds that the SMSC dropped, after the initial delay', async (t) => {
    const { smsc, binds, log } = await startedCarrier(t, { binds: 2 });
    smsc.dropConnections();
    const down = await log.count(isMsg('bind down'), 2);
    for (const line of down) {
      assert.equal(line.level, INFO);
      assert.equal(line.reason, 'socket-closed');
      assert.ok(line.retryInMs! >= 7 && line.retryInMs! <= 10, `retry in ${line.retryInMs} ms`);
    }
    await log.count(isMsg('bind up'), 4);
    assert.equal(smsc.connections.length, 4);
    assert.equal(binds.status().bindsUp, 2);
    assert.match(binds.status().lastError ?? '', /closed: socket-closed/);
    assert.equal((await binds.submit(message(1))).commandStatus, 0);
  });

  it('reopens a bind that the SMSC unbound', async (t) => {
    const { smsc, log } = await startedCarrier(t);
    smsc.connection.send({ command: 'unbind', commandStatus: 0, sequenceNumber: 9 });
    const [down] = await log.count(isMsg('bind down'), 1);
    assert.equal(down?.reason, 'remote-unbind');
    await log.count(isMsg('bind up'), 2);
    assert.equal(smsc.connections.length, 2);
  });

  it('backs off longer after each refused bind, then binds once the SMSC accepts', async (t) => {
    const { smsc, binds, log } = await carrierAgainstSmsc(
      t,
      { reconnect: { initialDelayMs: 10, maxDelayMs: 80 } },
      { bindStatus: CommandStatus.ESME_RBINDFAIL },
    );
    binds.start();
    const refused = await log.count(isMsg('bind refused'), 5);
    assert.ok(refused.every((line) => line.level === WARN && line.commandStatus === '0x0000000d'));
    const delays = refused.map((line) => line.retryInMs!);
    // 10, 20, 40, 80, 80 ms, each less up to a quarter.
    for (const [i, ceilingMs] of [10, 20, 40, 80, 80].entries())
      assert.ok(delays[i]! > ceilingMs * 0.7 && delays[i]! <= ceilingMs, `delays ${delays}`);
    assert.equal(binds.up, false);
    assert.match(binds.status().lastError ?? '', /refused with command_status 0x0000000d/);
    await assert.rejects(binds.submit(message(1)), CarrierDownError);

    smsc.behaviour.bindStatus = CommandStatus.ESME_ROK;
    await log.count(isMsg('bind up'), 1);
    assert.equal(binds.up, true);
    assert.equal((await binds.submit(message(2))).commandStatus, 0);
  });

  it('keeps doubling the delay for binds that drop soon after binding, not after one stayed up', async (t) => {
    const clock = new FakeClock();
    const { smsc, log } = await startedCarrier(
      t,
      { reconnect: { initialDelayMs: 10, maxDelayMs: 1_000 } },
      {},
      { now: () => clock.now() },
    );
    const dropAndRebind = async (times: number) => {
      smsc.dropConnections();
      await log.count(isMsg('bind up'), times + 1);
      return log.matching(isMsg('bind down')).at(-1)!.retryInMs!;
    };
    assert.ok((await dropAndRebind(1)) <= 10);
    assert.ok((await dropAndRebind(2)) > 10);
    clock.advance(30_000);
    assert.ok((await dropAndRebind(3)) <= 10);
  });

  it('stops: in-flight submits finish, every bind unbinds, no timer or socket is left', async (t) => {
    const before = await activeHandles();
    const clock = new FakeClock();
    const { smsc, binds, log } = await startedCarrier(
      t,
      { bindMode: 'transmitter+receiver', binds: 2, submitsPerSecond: 10 },
      { onSubmit: () => 'hold' },
      { now: () => clock.now() },
    );
    // One token in the bucket, one more when the clock moves 100 ms; the third submit waits.
    const inFlight = [binds.submit(message(1)), binds.submit(message(2))];
    const waiting = binds.submit(message(3));
    clock.advance(100);
    await smsc.heldCount(2);
    const stopping = binds.stop(1_000);
    await assert.rejects(waiting, (error) => error instanceof CarrierDownError);
    await assert.rejects(binds.submit(message(4)), /stopping/);
    smsc.releaseSubmits();
    for (const result of await Promise.all(inFlight)) assert.equal(result.commandStatus, 0);
    await stopping;

    for (const connection of smsc.connections)
      assert.equal(connection.received.at(-1)?.command, 'unbind');
    assert.deepEqual(
      log.matching(isMsg('bind down')).map((line) => line.reason),
      ['local-unbind', 'local-unbind', 'local-unbind', 'local-unbind'],
    );
    assert.equal(binds.up, false);
    await smsc.close();
    assert.deepEqual(await activeHandles(), before);
  });

  it('stops at once while binds wait to reconnect or wait for a bind_resp', async (t) => {
    const before = await activeHandles();
    const refusing = await carrierAgainstSmsc(t, {}, { bindStatus: CommandStatus.ESME_RBINDFAIL });
    const silent = await carrierAgainstSmsc(t, { responseTimeoutMs: 5_000 }, { silentBind: true });
    const binding = silent.smsc.nextPdu((pdu) => pdu.command === 'bind_transceiver');
    refusing.binds.start();
    silent.binds.start();
    await refusing.log.count(isMsg('bind refused'), 1);
    await binding;

    const startedAt = performance.now();
    await Promise.all([refusing.binds.stop(1_000), silent.binds.stop(1_000)]);
    assert.ok(performance.now() - startedAt < 1_000, 'the bind attempt was not waited out');
    await assert.rejects(silent.binds.submit(message(1)), CarrierDownError);
    await refusing.smsc.close();
    await silent.smsc.close();
    assert.deepEqual(await activeHandles(), before);
  });
});
