// The typed failures of the SMPP layer. The codec throws only these on any input, so a caller can
// tell a peer's garbage (answer and carry on, or close) from a bug of ours.

/** Base of every error the SMPP codec and session raise. */
export class SmppError extends Error {
  override name = 'SmppError';
}

/**
 * command_length outside 16..maxCommandLength (SMPP 3.4 §5.1.1). The byte stream can no longer
 * be framed: answer generic_nack ESME_RINVCMDLEN and close the connection.
 */
export class PduFramingError extends SmppError {
  override name = 'PduFramingError';
  constructor(
    readonly commandLength: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A well-framed PDU whose body does not parse: a C-Octet String without its NUL within the field's
 * maximum, a field running past command_length, a truncated TLV. The frame has been consumed,
 * so the stream goes on; answer the request with `commandStatus`.
 */
export class PduDecodeError extends SmppError {
  override name = 'PduDecodeError';
  constructor(
    readonly commandId: number,
    readonly sequenceNumber: number,
    /** The command_status to answer with, e.g. ESME_RINVSRCADR for an over-long source_addr. */
    readonly commandStatus: number,
    reason: string,
  ) {
    super(`command_id 0x${commandId.toString(16).padStart(8, '0')}: ${reason}`);
  }
}

/** A PDU that cannot be encoded as given: a field longer than SMPP 3.4 allows. Nothing was sent. */
export class PduEncodeError extends SmppError {
  override name = 'PduEncodeError';
}

/** The SMSC answered the bind with a non-zero command_status (SMPP 3.4 §4.1). */
export class BindRefusedError extends SmppError {
  override name = 'BindRefusedError';
  constructor(readonly commandStatus: number) {
    super(`bind refused with command_status 0x${commandStatus.toString(16).padStart(8, '0')}`);
  }
}

export type ConnectFailure =
  'connect-timeout' | 'socket-error' | 'bind-timeout' | 'closed' | 'aborted';

/**
 * No session: the TCP connection failed or timed out, closed before bind_resp, or the caller
 * aborted the attempt.
 */
export class ConnectionFailedError extends SmppError {
  override name = 'ConnectionFailedError';
  constructor(
    readonly reason: ConnectFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No response to a request within responseTimeoutMs; its window slot is free again. */
export class ResponseTimeoutError extends SmppError {
  override name = 'ResponseTimeoutError';
  constructor(
    readonly command: string,
    readonly sequenceNumber: number,
    readonly timeoutMs: number,
  ) {
    super(`no response to ${command} #${sequenceNumber} within ${timeoutMs} ms`);
  }
}

/**
 * The session closed (or is unbinding) before this request was answered. The request may or may
 * not have reached the SMSC; the caller puts the work back in its queue.
 */
export class SessionClosedError extends SmppError {
  override name = 'SessionClosedError';
  constructor(readonly reason: string) {
    super(`SMPP session closed: ${reason}`);
  }
}
