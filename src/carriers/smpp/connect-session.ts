import { connect } from 'node:net';
import type { SessionOptions } from './session-options.js';
import { ConnectionFailedError } from './smpp-errors.js';
import { SmppSession } from './smpp-session.js';

/**
 * Connects to the SMSC, binds, and resolves with the bound session. Rejects with
 * ConnectionFailedError (connect refused or timed out, no bind_resp in time, closed while binding,
 * `signal` aborted) or BindRefusedError (bind_resp with an error status); nothing stays open when
 * it rejects. Aborting after it resolved does nothing: the session is the caller's to close.
 */
export function connectSession(
  options: SessionOptions,
  signal?: AbortSignal,
): Promise<SmppSession> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ConnectionFailedError('aborted', 'aborted before connecting'));
      return;
    }
    const socket = connect({ host: options.host, port: options.port });
    const fail = (error: ConnectionFailedError) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    };
    const onAbort = () => fail(new ConnectionFailedError('aborted', 'aborted while connecting'));
    signal?.addEventListener('abort', onAbort, { once: true });
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
      signal?.removeEventListener('abort', onAbort);
      const session = new SmppSession(socket, options);
      const abortBind = () => session.destroy();
      signal?.addEventListener('abort', abortBind, { once: true });
      session.bind().then(
        () => {
          signal?.removeEventListener('abort', abortBind);
          resolve(session);
        },
        // Reject once the socket is closed, so that a caller who retries holds one at a time.
        (error: unknown) => {
          signal?.removeEventListener('abort', abortBind);
          const aborted = signal?.aborted
            ? new ConnectionFailedError('aborted', 'aborted while binding', { cause: error })
            : error;
          void session.closed.then(() => reject(aborted));
        },
      );
    });
  });
}
