import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { connectSession } from '../../../src/carriers/smpp/connect-session.js';
import { CommandStatus } from '../../../src/carriers/smpp/pdu.js';
import { BindRefusedError, ConnectionFailedError } from '../../../src/carriers/smpp/smpp-errors.js';
import { openSession, sessionOptions, startSmsc } from './session-fixture.js';

describe('SMPP session: bind', () => {
  it('binds as transceiver with the SMPP 3.4 interface version and the given credentials', async (t) => {
    const smsc = await startSmsc(t);
    const session = await openSession(t, smsc, { systemType: 'NOK', addrTon: 1, addrNpi: 1 });
    assert.equal(session.bound, true);
    assert.deepEqual(smsc.connection.received[0], {
      command: 'bind_transceiver',
      commandStatus: 0,
      sequenceNumber: 1,
      systemId: 'nok',
      password: 'secret',
      systemType: 'NOK',
      interfaceVersion: 0x34,
      addrTon: 1,
      addrNpi: 1,
      addressRange: '',
    });
  });

  it('binds as transmitter or receiver when asked', async (t) => {
    const smsc = await startSmsc(t);
    await openSession(t, smsc, { mode: 'transmitter' });
    await openSession(t, smsc, { mode: 'receiver' });
    assert.equal(smsc.connections[0]?.received[0]?.command, 'bind_transmitter');
    assert.equal(smsc.connections[1]?.received[0]?.command, 'bind_receiver');
  });

  it('rejects with BindRefusedError carrying the status, and closes the connection', async (t) => {
    const smsc = await startSmsc(t, { bindStatus: CommandStatus.ESME_RINVPASWD });
    await assert.rejects(connectSession(sessionOptions(smsc)), (error: unknown) => {
      assert.ok(error instanceof BindRefusedError);
      assert.equal(error.commandStatus, CommandStatus.ESME_RINVPASWD);
      return true;
    });
    const socket = smsc.connection.socket;
    if (!socket.destroyed) await once(socket, 'close');
  });

  it('rejects with ConnectionFailedError when nothing listens', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');
    await assert.rejects(
      connectSession({
        host: '127.0.0.1',
        port,
        mode: 'transceiver',
        systemId: 'a',
        password: 'b',
      }),
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'socket-error',
    );
  });

  it('rejects with ConnectionFailedError when bind_resp does not come in time', async (t) => {
    const smsc = await startSmsc(t, { silentBind: true });
    await assert.rejects(
      connectSession(sessionOptions(smsc, { responseTimeoutMs: 30 })),
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'bind-timeout',
    );
  });

  it('rejects with ConnectionFailedError when the SMSC hangs up during the bind', async (t) => {
    const smsc = await startSmsc(t, { silentBind: true });
    const connecting = connectSession(sessionOptions(smsc));
    await smsc.nextPdu((pdu) => pdu.command === 'bind_transceiver');
    smsc.dropConnections();
    await assert.rejects(
      connecting,
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'closed',
    );
  });

  it('rejects with ConnectionFailedError "aborted" and closes when aborted while binding', async (t) => {
    const smsc = await startSmsc(t, { silentBind: true });
    const abort = new AbortController();
    const connecting = connectSession(sessionOptions(smsc), abort.signal);
    await smsc.nextPdu((pdu) => pdu.command === 'bind_transceiver');
    abort.abort();
    await assert.rejects(
      connecting,
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'aborted',
    );
    const socket = smsc.connection.socket;
    if (!socket.destroyed) await once(socket, 'close');
  });

  it('rejects with ConnectionFailedError "aborted" when aborted before or while connecting', async (t) => {
    const smsc = await startSmsc(t);
    const abort = new AbortController();
    const connecting = connectSession(sessionOptions(smsc), abort.signal);
    abort.abort();
    await assert.rejects(
      connecting,
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'aborted',
    );
    await assert.rejects(
      connectSession(sessionOptions(smsc), abort.signal),
      (error: unknown) => error instanceof ConnectionFailedError && error.reason === 'aborted',
    );
  });
});
