import { connect, type Socket } from 'node:net';
import { encodePdu } from '../../src/carriers/smpp/encode-pdu.js';
import type {
  BindPdu,
  BindRespPdu,
  DeliverSmPdu,
  MessageRespPdu,
  Pdu,
} from '../../src/carriers/smpp/pdu.js';
import { PduReader } from '../../src/carriers/smpp/pdu-reader.js';
import {
  shortMessageFields,
  type ShortMessageInput,
} from '../../src/carriers/smpp/short-message-fields.js';

interface Waiter {
  readonly predicate: (pdu: Pdu) => boolean;
  readonly count: number;
  readonly matched: Pdu[];
  readonly resolve: (pdus: Pdu[]) => void;
}

/**
 * A bare SMPP client on our codec for precise checks against the simulator: every PDU it
 * receives is kept in order, deliver_sm is acknowledged unless told otherwise, and a test awaits
 * PDUs by predicate instead of sleeping.
 */
export class RawSmppClient {
  readonly received: Pdu[] = [];
  /** Answer each deliver_sm with deliver_sm_resp. */
  autoAck = true;
  readonly closed: Promise<void>;
  private readonly reader = new PduReader();
  private readonly waiters: Waiter[] = [];
  private nextSequence = 1;

  private constructor(private readonly socket: Socket) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      this.reader.push(chunk);
      for (let pdu = this.reader.next(); pdu !== null; pdu = this.reader.next()) this.take(pdu);
    });
  }

  static async connect(port: number): Promise<RawSmppClient> {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawSmppClient(socket);
  }

  /** Connects and binds; throws unless the bind succeeds. */
  static async bound(
    port: number,
    mode: 'transmitter' | 'receiver' | 'transceiver' = 'transceiver',
    systemId = 'nok',
    password = 'nok',
  ): Promise<RawSmppClient> {
    const client = await RawSmppClient.connect(port);
    const response = await client.bind(mode, systemId, password);
    if (response.commandStatus !== 0) throw new Error(`bind failed: ${response.commandStatus}`);
    return client;
  }

  /** Writes a PDU as is (its sequence_number included). */
  write(pdu: Pdu): void {
    this.socket.write(encodePdu(pdu));
  }

  writeRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Sends a request with the next sequence_number and resolves with its response. */
  request<T extends Pdu>(build: (sequenceNumber: number) => Pdu): Promise<T> {
    const sequenceNumber = this.nextSequence++;
    const response = this.waitFor((p) => p.sequenceNumber === sequenceNumber && isResponse(p)).then(
      ([p]) => p as T,
    );
    this.write(build(sequenceNumber));
    return response;
  }

  bind(mode: 'transmitter' | 'receiver' | 'transceiver', systemId: string, password: string) {
    return this.request<BindRespPdu>((sequenceNumber) =>
      bindPdu(mode, systemId, password, sequenceNumber),
    );
  }

  submit(input: Partial<ShortMessageInput> & { destinationAddr: string }): Promise<MessageRespPdu> {
    return this.request<MessageRespPdu>((sequenceNumber) => ({
      command: 'submit_sm',
      commandStatus: 0,
      sequenceNumber,
      ...shortMessageFields({
        sourceAddr: 'NOK',
        dataCoding: 0,
        shortMessage: Buffer.from('Hello'),
        registeredDelivery: 1,
        ...input,
      }),
    }));
  }

  /** Resolves with the first `count` received PDUs (past and future) that match. */
  waitFor(predicate: (pdu: Pdu) => boolean, count = 1): Promise<Pdu[]> {
    const matched = this.received.filter(predicate);
    if (matched.length >= count) return Promise.resolve(matched.slice(0, count));
    return new Promise((resolve) => this.waiters.push({ predicate, count, matched, resolve }));
  }

  /** Resolves with `count` receipts (deliver_sm). */
  receipts(count: number): Promise<DeliverSmPdu[]> {
    return this.waitFor((p) => p.command === 'deliver_sm', count) as Promise<DeliverSmPdu[]>;
  }

  /** Closes the connection and waits until it is closed. */
  async close(): Promise<void> {
    this.socket.destroy();
    await this.closed;
  }

  private take(pdu: Pdu): void {
    this.received.push(pdu);
    if (pdu.command === 'deliver_sm' && this.autoAck) {
      this.write({
        command: 'deliver_sm_resp',
        commandStatus: 0,
        sequenceNumber: pdu.sequenceNumber,
        messageId: '',
      });
    }
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (!waiter.predicate(pdu)) continue;
      waiter.matched.push(pdu);
      if (waiter.matched.length === waiter.count) {
        this.waiters.splice(i, 1);
        waiter.resolve(waiter.matched);
      }
    }
  }
}

function isResponse(pdu: Pdu): boolean {
  return pdu.command.endsWith('_resp') || pdu.command === 'generic_nack';
}

export function bindPdu(
  mode: 'transmitter' | 'receiver' | 'transceiver',
  systemId: string,
  password: string,
  sequenceNumber: number,
): BindPdu {
  return {
    command: `bind_${mode}`,
    commandStatus: 0,
    sequenceNumber,
    systemId,
    password,
    systemType: '',
    interfaceVersion: 0x34,
    addrTon: 0,
    addrNpi: 0,
    addressRange: '',
  };
}
