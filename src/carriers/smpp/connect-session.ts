import { connect } from 'node:net';
import type { SessionOptions } from './session-options.js';
import { ConnectionFailedError } from './smpp-errors.js';
import { SmppSession } from './smpp-session.js';

/**
 * Connects to the SMSC, binds, and resolves with the bound session. Rejects with
 * ConnectionFailedError (connect refused or timed out, no bind_resp in time, closed while binding)
 * or BindRefusedError (bind_resp with an error status); nothing stays open when it rejects.
 */
export function connectSession(options: SessionOptions): Promise<SmppSession> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host, port: options.port });
    const fail = (error: ConnectionFailedError) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => {
      const message = `no connection to ${options.host}:${options.port} within ${connectTimeoutMs} ms`;
      fail(new ConnectionFailedError('connect-timeout', message));
    }, connectTimeoutMs);
    const onError = (error: Error) =>
      fail(new ConnectionFailedError('socket-error', error.message, { cause: error }));
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      const session = new SmppSession(socket, options);
      session.bind().then(
        () => resolve(session),
        // Reject once the socket is closed, so that a caller who retries holds one at a time.
        (error: unknown) => void session.closed.then(() => reject(error)),
      );
    });
  });
}
