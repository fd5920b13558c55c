// A minimal SMSC on 127.0.0.1 for the session's tests, built on Nok's own codec (not the
// simulator, which is built on top of the session's codec and tested by it). Each test sets the
// behaviour it needs: bind status, submit answers held back or never given, enquire_link left
// unanswered; and drives the rest by hand: send deliver_sm, enquire_link or unbind, drop the link.
import { once } from 'node:events';
import { type Server, type Socket, createServer } from 'node:net';
import { encodePdu } from '../../src/carriers/smpp/encode-pdu.js';
import type { Pdu, SubmitSmPdu } from '../../src/carriers/smpp/pdu.js';
import { PduReader } from '../../src/carriers/smpp/pdu-reader.js';

export interface SmscBehaviour {
  /** command_status of every bind_resp; default ESME_ROK. */
  bindStatus: number;
  /** Never answer binds. */
  silentBind: boolean;
  /**
   * What to do with a submit_sm: 'answer' at once, 'hold' until releaseSubmits(), 'ignore' for
   * good. Given the submit's index (0, 1, …) over the SMSC's life.
   */
  onSubmit: (index: number, pdu: SubmitSmPdu) => 'answer' | 'hold' | 'ignore';
  /** command_status and message_id of a submit_sm_resp. */
  submitStatus: (index: number) => number;
  messageId: (index: number) => string;
  /** Called before a submit_sm is answered: a test may send a receipt first. */
  beforeSubmitResp: (connection: SmscConnection, index: number, messageId: string) => void;
  answerEnquireLink: boolean;
}

const defaults: SmscBehaviour = {
  bindStatus: 0,
  silentBind: false,
  onSubmit: () => 'answer',
  submitStatus: () => 0,
  messageId: (index) => `m${index}`,
  beforeSubmitResp: () => undefined,
  answerEnquireLink: true,
};

interface HeldSubmit {
  connection: SmscConnection;
  pdu: SubmitSmPdu;
  index: number;
}

export class SmscConnection {
  /** Every PDU received on this connection, in order. */
  readonly received: Pdu[] = [];
  private readonly reader = new PduReader();
  private sequence = 0x10000;

  constructor(
    readonly socket: Socket,
    private readonly smsc: TestSmsc,
  ) {
    // Without it Nagle holds a small response back until the client's delayed ACK (~40 ms).
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      smsc.dataChunks++;
      this.reader.push(chunk);
      socket.cork();
      for (let pdu = this.reader.next(); pdu !== null; pdu = this.reader.next()) {
        this.received.push(pdu);
        smsc.onPdu(this, pdu);
      }
      socket.uncork();
    });
    socket.on('error', () => undefined);
  }

  send(pdu: Pdu): void {
    if (!this.socket.destroyed) this.socket.write(encodePdu(pdu));
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  nextSequence(): number {
    return ++this.sequence;
  }
}

export class TestSmsc {
  readonly behaviour: SmscBehaviour;
  readonly connections: SmscConnection[] = [];
  /** submit_sm received and not yet answered, now and at most. */
  inFlight = 0;
  maxInFlight = 0;
  submitsReceived = 0;
  /** 'data' events on the SMSC's sockets: how many writes the client's bytes arrived in. */
  dataChunks = 0;
  private held: HeldSubmit[] = [];
  private waiters: { test: (pdu: Pdu) => boolean; resolve: (pdu: Pdu) => void }[] = [];

  private constructor(
    private readonly server: Server,
    behaviour: Partial<SmscBehaviour>,
  ) {
    this.behaviour = { ...defaults, ...behaviour };
    server.on('connection', (socket) => this.connections.push(new SmscConnection(socket, this)));
  }

  static async start(behaviour: Partial<SmscBehaviour> = {}): Promise<TestSmsc> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new TestSmsc(server, behaviour);
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  /** The latest connection (the session under test). */
  get connection(): SmscConnection {
    const last = this.connections.at(-1);
    if (!last) throw new Error('no connection yet');
    return last;
  }

  /** Resolves with the first PDU received from now on that passes `test`. */
  nextPdu(test: (pdu: Pdu) => boolean): Promise<Pdu> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Answers every held submit, in order. */
  releaseSubmits(): void {
    const held = this.held;
    this.held = [];
    for (const submit of held) this.answerSubmit(submit);
  }

  /** Resolves once `count` submits are held. */
  async heldCount(count: number): Promise<void> {
    while (this.held.length < count) await this.nextPdu((pdu) => pdu.command === 'submit_sm');
  }

  dropConnections(): void {
    for (const connection of this.connections) connection.socket.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  onPdu(connection: SmscConnection, pdu: Pdu): void {
    this.respond(connection, pdu);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test(pdu)) return true;
      waiter.resolve(pdu);
      return false;
    });
  }

  private respond(connection: SmscConnection, pdu: Pdu): void {
    const sequenceNumber = pdu.sequenceNumber;
    switch (pdu.command) {
      case 'bind_transmitter':
      case 'bind_receiver':
      case 'bind_transceiver':
        if (this.behaviour.silentBind) return;
        return connection.send({
          command: `${pdu.command}_resp`,
          commandStatus: this.behaviour.bindStatus,
          sequenceNumber,
          systemId: 'TESTSMSC',
          tlvs: [],
        });
      case 'submit_sm': {
        const index = this.submitsReceived++;
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const action = this.behaviour.onSubmit(index, pdu);
        if (action === 'answer') this.answerSubmit({ connection, pdu, index });
        else if (action === 'hold') this.held.push({ connection, pdu, index });
        return;
      }
      case 'enquire_link':
        if (this.behaviour.answerEnquireLink)
          connection.send({ command: 'enquire_link_resp', commandStatus: 0, sequenceNumber });
        return;
      case 'unbind':
        connection.send({ command: 'unbind_resp', commandStatus: 0, sequenceNumber });
        connection.socket.end();
        return;
      default:
        return;
    }
  }

  private answerSubmit({ connection, pdu, index }: HeldSubmit): void {
    this.inFlight--;
    const commandStatus = this.behaviour.submitStatus(index);
    const messageId = this.behaviour.messageId(index);
    this.behaviour.beforeSubmitResp(connection, index, messageId);
    const sequenceNumber = pdu.sequenceNumber;
    connection.send({ command: 'submit_sm_resp', commandStatus, sequenceNumber, messageId });
  }
}
