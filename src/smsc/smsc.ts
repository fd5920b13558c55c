import type { Socket } from 'node:net';
import {
  CommandStatus,
  SMPP_VERSION_34,
  TlvTag,
  type BindMode,
  type BindPdu,
  type Pdu,
  type SubmitSmPdu,
} from '../carriers/smpp/pdu.js';
import { CommandId } from '../carriers/smpp/pdu.js';
import { integerTlv } from '../carriers/smpp/tlv.js';
import { messageIds } from './message-ids.js';
import { ReceiptOutbox, type PendingReceipt } from './receipt-outbox.js';
import { errorResponse } from '../carriers/smpp/error-response.js';
import { SmscConnection, type ConnectionHandler } from './smsc-connection.js';
import type { ResolvedSmscOptions } from './smsc-options.js';
import { createSmscStats, type SmscStats } from './smsc-stats.js';
import { SubmitHandler } from './submit-handler.js';
import { TimerWheel } from './timer-wheel.js';

/** The system_id the simulator names itself with in bind responses (SMPP 3.4 §4.1.2). */
const SMSC_SYSTEM_ID = 'NOKSMSC';

const BIND_MODE: Readonly<Record<BindPdu['command'], BindMode>> = {
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
  bind_transceiver: 'transceiver',
};

/**
 * The simulated SMSC's behaviour over any number of client connections: binds, keep-alive,
 * unbind, and unknown commands here; submits in {@link SubmitHandler}; receipts in
 * {@link ReceiptOutbox}. It owns no listening socket (see startSmsc).
 */
export class Smsc implements ConnectionHandler {
  readonly stats: SmscStats = createSmscStats();
  private readonly connections = new Set<SmscConnection>();
  private readonly bindsOpen = new Map<string, number>();
  private readonly outbox: ReceiptOutbox;
  private readonly submits: SubmitHandler;
  private readonly receiptTimers: TimerWheel<PendingReceipt>;

  constructor(
    private readonly options: ResolvedSmscOptions,
    now: () => number = Date.now,
  ) {
    this.outbox = new ReceiptOutbox(
      this.stats,
      options.receiptRetryIntervalMs,
      options.receiptMaxAttempts,
      options.logger,
      now,
    );
    this.receiptTimers = new TimerWheel((receipts) => {
      for (const receipt of receipts) this.outbox.enqueue(receipt);
    });
    this.submits = new SubmitHandler(
      options,
      this.stats,
      this.outbox,
      this.receiptTimers,
      messageIds(options.messageIdFormat, options.firstMessageId),
      now,
    );
  }

  accept(socket: Socket): void {
    this.connections.add(new SmscConnection(socket, this));
    this.stats.connections += 1;
  }

  onPdu(connection: SmscConnection, pdu: Pdu): void {
    switch (pdu.command) {
      case 'bind_transmitter':
      case 'bind_receiver':
      case 'bind_transceiver':
        return this.bind(connection, pdu);
      case 'submit_sm':
        return this.submit(connection, pdu);
      case 'deliver_sm_resp':
        return this.outbox.acknowledge(connection, pdu.sequenceNumber, pdu.commandStatus);
      case 'enquire_link':
        return connection.send({ ...header(pdu), command: 'enquire_link_resp' });
      case 'unbind':
        // SMPP 3.4 §4.2: the bind ends with the answer; the connection closes after it.
        this.release(connection);
        connection.send({ ...header(pdu), command: 'unbind_resp' });
        return connection.end();
      case 'deliver_sm':
        // Receipts and mobile-originated messages flow from the SMSC, never to it.
        return connection.send({
          command: 'generic_nack',
          commandStatus: CommandStatus.ESME_RINVCMDID,
          sequenceNumber: pdu.sequenceNumber,
        });
      case 'unknown':
        if ((pdu.commandId & 0x80000000) !== 0) return; // a response: nothing to answer
        return connection.send({
          command: 'generic_nack',
          commandStatus: CommandStatus.ESME_RINVCMDID,
          sequenceNumber: pdu.sequenceNumber,
        });
      default:
        return; // responses to our enquire_link, unbind, or a generic_nack: nothing to do
    }
  }

  onClose(connection: SmscConnection): void {
    this.connections.delete(connection);
    this.stats.connections -= 1;
    this.release(connection);
  }

  /**
   * Drops every client connection at once, as a network cut or an SMSC restart would, and
   * keeps running: submits already accepted keep their receipts, which wait in the outbox for
   * the next receiver bind; answers not yet written are lost with their connections. Returns
   * how many connections were dropped.
   */
  dropConnections(): number {
    const dropped = this.connections.size;
    this.options.logger.info({ connections: dropped }, 'dropping every connection on purpose');
    for (const connection of this.connections) connection.destroy();
    return dropped;
  }

  /** Drops every connection at once and stops every timer. */
  close(): void {
    for (const connection of this.connections) connection.destroy();
    this.submits.close();
    this.receiptTimers.close();
    this.outbox.close();
  }

  /** Ends the connection's bind: its slot frees, its unacknowledged receipts go back in the queue. */
  private release(connection: SmscConnection): void {
    if (connection.systemId === null) return;
    this.bindsOpen.set(connection.systemId, (this.bindsOpen.get(connection.systemId) ?? 1) - 1);
    this.outbox.connectionClosed(connection);
    connection.systemId = null;
    connection.mode = null;
  }

  private bind(connection: SmscConnection, pdu: BindPdu): void {
    const status = this.bindStatus(connection, pdu);
    const fields = { systemId: pdu.systemId, mode: BIND_MODE[pdu.command] };
    if (status !== CommandStatus.ESME_ROK) {
      this.stats.bindsRefused += 1;
      this.options.logger.info({ ...fields, commandStatus: status }, 'bind refused');
      connection.send(errorResponse(CommandId[pdu.command], status, pdu.sequenceNumber));
      return;
    }
    const mode = BIND_MODE[pdu.command];
    connection.systemId = pdu.systemId;
    connection.mode = mode;
    this.bindsOpen.set(pdu.systemId, (this.bindsOpen.get(pdu.systemId) ?? 0) + 1);
    this.stats.binds[mode] += 1;
    this.options.logger.info(fields, 'bound');
    connection.send({
      command: `${pdu.command}_resp`,
      commandStatus: CommandStatus.ESME_ROK,
      sequenceNumber: pdu.sequenceNumber,
      systemId: SMSC_SYSTEM_ID,
      tlvs: [integerTlv(TlvTag.sc_interface_version, SMPP_VERSION_34, 1)],
    });
    if (connection.canReceive) this.outbox.receiverBound(connection);
  }

  private bindStatus(connection: SmscConnection, pdu: BindPdu): number {
    if (connection.systemId !== null) return CommandStatus.ESME_RALYBND;
    if (this.options.refuseBinds) return CommandStatus.ESME_RBINDFAIL;
    const account = this.options.accounts.find((a) => a.systemId === pdu.systemId);
    if (account === undefined) return CommandStatus.ESME_RINVSYSID;
    if (account.password !== pdu.password) return CommandStatus.ESME_RINVPASWD;
    const limit = this.options.maxBindsPerSystemId;
    if (limit !== null && (this.bindsOpen.get(pdu.systemId) ?? 0) >= limit) {
      return CommandStatus.ESME_RBINDFAIL;
    }
    return CommandStatus.ESME_ROK;
  }

  private submit(connection: SmscConnection, pdu: SubmitSmPdu): void {
    if (!connection.canTransmit) {
      // SMPP 3.4 §2.3: submit_sm is for transmitter and transceiver binds only.
      connection.send(
        errorResponse(CommandId.submit_sm, CommandStatus.ESME_RINVBNDSTS, pdu.sequenceNumber),
      );
      return;
    }
    this.submits.submit(connection, pdu);
  }
}

function header(pdu: Pdu): { commandStatus: number; sequenceNumber: number } {
  return { commandStatus: CommandStatus.ESME_ROK, sequenceNumber: pdu.sequenceNumber };
}
