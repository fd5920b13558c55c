// One bind to an SMSC, from bind to close (SMPP 3.4 §2.2: OPEN → BOUND → CLOSED). A session
// never reconnects: whoever owns it opens a new one (connectSession) once `closed` resolves.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { answerIncoming } from './answer-incoming.js';
import { BatchedWriter } from './batched-writer.js';
import { deliverToOwner } from './deliver-to-owner.js';
import { encodePdu } from './encode-pdu.js';
import { IncomingPdus } from './incoming-pdus.js';
import { bindPdu } from './bind-pdu.js';
import { EnquireLinkTimer } from './enquire-link-timer.js';
import { CommandStatus, type DeliverSmPdu, type Pdu } from './pdu.js';
import { PendingRequests } from './pending-requests.js';
import type { CloseReason, SessionClose, SessionOptions, SubmitResult } from './session-options.js';
import { type ShortMessageInput, shortMessageFields } from './short-message-fields.js';
import {
  BindRefusedError,
  ConnectionFailedError,
  PduDecodeError,
  PduFramingError,
  ResponseTimeoutError,
  SessionClosedError,
} from './smpp-errors.js';
import { SubmitQueue } from './submit-queue.js';

type State = 'binding' | 'bound' | 'unbinding' | 'closed';

/** SMPP 3.4 §5.1.4: sequence numbers run 0x00000001 to 0x7FFFFFFF, then round again. */
const MAX_SEQUENCE = 0x7fffffff;
const ENQUIRE_LINK = { command: 'enquire_link', commandStatus: 0, sequenceNumber: 0 } as const;
const UNBIND = { command: 'unbind', commandStatus: 0, sequenceNumber: 0 } as const;

export class SmppSession {
  readonly windowSize: number;
  /** Resolves once the session is closed, its socket too, with why. Never rejects. */
  readonly closed: Promise<SessionClose>;

  /** Responses that came after their request timed out (a submit may then go out twice). */
  lateResponses = 0;

  private state: State = 'binding';
  private closeInfo: SessionClose = { reason: 'socket-closed' };
  private sequence = 0;
  private deliveriesInHand = 0;
  private idleWaiter: (() => void) | null = null;

  private readonly incoming: IncomingPdus;
  private readonly writer: BatchedWriter;
  private readonly pending: PendingRequests;
  private readonly queue = new SubmitQueue();
  private readonly responseTimeoutMs: number;
  private readonly enquireLink: EnquireLinkTimer;

  /** Takes a connected socket; connectSession is the way in. */
  constructor(
    private readonly socket: Socket,
    private readonly options: SessionOptions,
  ) {
    this.windowSize = options.windowSize ?? 10;
    this.responseTimeoutMs = options.responseTimeoutMs ?? 10_000;
    this.enquireLink = new EnquireLinkTimer(
      options.enquireLinkIntervalMs ?? 30_000,
      () => this.request(ENQUIRE_LINK, this.responseTimeoutMs),
      (error) => this.finish('enquire-link-timeout', error),
    );
    this.writer = new BatchedWriter(socket, () => this.pump());
    this.pending = new PendingRequests((request, sequenceNumber) =>
      request.fail(new ResponseTimeoutError(request.command, sequenceNumber, request.timeoutMs)),
    );
    this.incoming = new IncomingPdus(
      socket,
      options.maxPdusPerTurn ?? 128,
      options.maxBufferedBytes ?? 1024 * 1024,
      {
        pdu: (pdu) => this.handle(pdu),
        badPdu: (error) => this.onBadPdu(error),
        stopped: () => this.state === 'closed',
      },
    );
    // Nagle would only hold back what BatchedWriter has already joined per turn.
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.enquireLink.received();
      this.incoming.receive(chunk);
    });
    socket.on('error', (error) => this.finish('socket-error', error));
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.finish('socket-closed');
        resolve(this.closeInfo);
      }),
    );
  }

  get bound(): boolean {
    return this.state === 'bound';
  }

  /** submit_sm sent and not yet answered. */
  get inFlight(): number {
    return this.pending.submitsInFlight;
  }

  /** submit() calls waiting for a window slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Sends a submit_sm once a window slot is free (first come, first served) and the socket takes
   * writes; resolves with its submit_sm_resp. Rejects with ResponseTimeoutError (its slot is
   * freed), SessionClosedError (closed or unbinding: put the work back) or PduEncodeError (a
   * field too long: nothing was sent).
   */
  submit(input: ShortMessageInput): Promise<SubmitResult> {
    if (this.state !== 'bound') return Promise.reject(new SessionClosedError(this.stateReason()));
    let pdu: Buffer;
    try {
      // sequence_number is written when a slot is granted, so numbers go out in order.
      const fields = shortMessageFields(input);
      pdu = encodePdu({ command: 'submit_sm', commandStatus: 0, sequenceNumber: 0, ...fields });
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ pdu, resolve, reject });
      this.pump();
    });
  }

  /**
   * Graceful close (SMPP 3.4 §4.2): refuses new submits and fails the waiting ones with
   * SessionClosedError, lets in-flight submits and deliveries be answered, sends unbind and waits
   * for unbind_resp, all within `timeoutMs`, then closes. Resolves once closed.
   */
  async unbind(timeoutMs = this.responseTimeoutMs): Promise<void> {
    if (this.state === 'bound') {
      this.state = 'unbinding';
      const deadline = performance.now() + timeoutMs;
      this.queue.failAll(new SessionClosedError('unbinding'));
      await this.untilIdle(deadline);
      if (this.state === 'unbinding') {
        const remainingMs = Math.max(1, deadline - performance.now());
        await this.request(UNBIND, remainingMs).catch(() => undefined);
        this.finish('local-unbind');
      }
    } else if (this.state === 'binding') this.finish('local-destroy');
    await this.closed;
  }

  /** Immediate close: every pending submit and waiter fails with SessionClosedError. */
  destroy(): void {
    this.finish('local-destroy');
  }

  /** Sends bind_<mode> and waits for bind_resp (SMPP 3.4 §4.1); connectSession calls it once. */
  async bind(): Promise<void> {
    let response: Pdu;
    try {
      response = await this.request(bindPdu(this.options), this.responseTimeoutMs);
    } catch (error) {
      this.finish('local-destroy');
      if (error instanceof ResponseTimeoutError)
        throw new ConnectionFailedError('bind-timeout', error.message, { cause: error });
      throw new ConnectionFailedError('closed', 'closed before bind_resp', { cause: error });
    }
    if (response.commandStatus !== CommandStatus.ESME_ROK) {
      this.finish('local-destroy');
      throw new BindRefusedError(response.commandStatus);
    }
    this.state = 'bound';
    this.enquireLink.start();
  }

  /** Grants window slots to queued submits, in order, while the window and the socket allow. */
  private pump(): void {
    while (this.state === 'bound' && this.queue.length > 0 && !this.writer.blocked) {
      if (this.pending.submitsInFlight >= this.windowSize) return;
      const { pdu, resolve, reject } = this.queue.shift()!;
      const sequenceNumber = this.nextSequence();
      pdu.writeUInt32BE(sequenceNumber, 12);
      this.pending.add(sequenceNumber, {
        command: 'submit_sm',
        deadline: performance.now() + this.responseTimeoutMs,
        timeoutMs: this.responseTimeoutMs,
        isSubmit: true,
        settle: (response) => {
          resolve(submitResultOf(response));
          this.afterAnswer();
        },
        fail: (error) => {
          reject(error);
          this.afterAnswer();
        },
      });
      this.writer.write(pdu);
    }
  }

  private afterAnswer(): void {
    this.pump();
    this.checkIdle();
  }

  /** Sends a request outside the submit window; resolves with its response PDU. */
  private request(pdu: Pdu, timeoutMs: number): Promise<Pdu> {
    return new Promise((settle, fail) => {
      const sequenceNumber = this.nextSequence();
      this.pending.add(sequenceNumber, {
        command: pdu.command,
        deadline: performance.now() + timeoutMs,
        timeoutMs,
        isSubmit: false,
        settle,
        fail,
      });
      this.writer.write(encodePdu({ ...pdu, sequenceNumber }));
    });
  }

  private nextSequence(): number {
    this.sequence = this.sequence >= MAX_SEQUENCE ? 1 : this.sequence + 1;
    return this.sequence;
  }

  private handle(pdu: Pdu): void {
    switch (pdu.command) {
      case 'deliver_sm':
        return this.deliver(pdu);
      case 'unbind':
        // SMPP 3.4 §4.2: answer and close; what was in flight fails and goes back to its queue.
        this.writer.write(encodePdu({ ...pdu, command: 'unbind_resp' }));
        return this.finish('remote-unbind');
      case 'submit_sm_resp':
      case 'enquire_link_resp':
      case 'unbind_resp':
      case 'bind_transmitter_resp':
      case 'bind_receiver_resp':
      case 'bind_transceiver_resp':
      case 'generic_nack': {
        // A late answer to a request that timed out finds nothing: it is counted and dropped.
        const request = this.pending.take(pdu.sequenceNumber);
        if (request) return request.settle(pdu);
        this.lateResponses++;
        return;
      }
      default:
        return this.answer(answerIncoming(pdu));
    }
  }

  private onBadPdu(error: unknown): void {
    if (error instanceof PduDecodeError) return this.answer(answerIncoming(error));
    if (error instanceof PduFramingError)
      // SMPP 3.4 §4.3: generic_nack for a header that cannot be trusted; the stream is lost.
      this.answer({
        command: 'generic_nack',
        commandStatus: CommandStatus.ESME_RINVCMDLEN,
        sequenceNumber: 0,
      });
    this.finish('protocol-error', error instanceof Error ? error : new Error(String(error)));
  }

  private answer(response: Pdu | null): void {
    if (response && this.state !== 'closed') this.writer.write(encodePdu(response));
  }

  /** The deliver_sm_resp goes out only once the owner has settled the deliver_sm. */
  private deliver(pdu: DeliverSmPdu): void {
    this.deliveriesInHand++;
    const failureStatus = this.options.deliverFailureStatus ?? CommandStatus.ESME_RSYSERR;
    void deliverToOwner(pdu, this.options.onDeliver, failureStatus).then((commandStatus) => {
      this.deliveriesInHand--;
      const sequenceNumber = pdu.sequenceNumber;
      this.answer({ command: 'deliver_sm_resp', commandStatus, sequenceNumber, messageId: '' });
      this.checkIdle();
    });
  }

  private untilIdle(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiter = done;
      this.checkIdle();
    });
  }

  private checkIdle(): void {
    if (!this.idleWaiter) return;
    const idle = this.inFlight === 0 && this.deliveriesInHand === 0;
    if (idle || this.state !== 'unbinding') {
      const waiter = this.idleWaiter;
      this.idleWaiter = null;
      waiter();
    }
  }

  private stateReason(): string {
    if (this.state === 'binding') return 'not bound yet';
    return this.state === 'unbinding' ? 'unbinding' : this.closeInfo.reason;
  }

  /** Closes once, for `reason`: fails all that is pending, lets go of timers and the socket. */
  private finish(reason: CloseReason, error?: Error): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeInfo = error ? { reason, error } : { reason };
    this.enquireLink.stop();
    this.incoming.stop();
    const closedError = new SessionClosedError(reason);
    this.pending.failAll(closedError);
    this.queue.failAll(closedError);
    this.checkIdle();
    if (reason === 'local-unbind' || reason === 'remote-unbind' || reason === 'protocol-error') {
      // What is queued (unbind_resp, deliver_sm_resps, generic_nack) goes out before the FIN. A
      // peer that never reads would hold the socket open: it gets the response timeout.
      this.writer.flush();
      const fallback = setTimeout(() => this.socket.destroy(), this.responseTimeoutMs).unref();
      this.socket.once('close', () => clearTimeout(fallback));
      this.socket.end(() => this.socket.destroy());
    } else {
      this.writer.discard();
      this.socket.destroy();
    }
  }
}

function submitResultOf(response: Pdu): SubmitResult {
  if (response.command === 'submit_sm_resp')
    return { commandStatus: response.commandStatus, messageId: response.messageId };
  // A generic_nack in reply (SMPP 3.4 §4.3) with status 0 would read as accepted.
  return { commandStatus: response.commandStatus || CommandStatus.ESME_RSYSERR, messageId: '' };
}
