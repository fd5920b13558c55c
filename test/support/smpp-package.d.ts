// Types for the parts of the npm `smpp` package (0.5.1, a devDependency) that Nok's tests and
// benches use: its PDU codec and its server, as a foreign implementation to check ours against
// and to measure ours by (docs/adr/0010-own-smpp-codec.md). It ships no types of its own.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    /** Fields by their SMPP 3.4 names (snake_case), TLVs by tag name, header fields included. */
    type PduFields = Record<string, unknown>;

    class PDU {
      /** A PDU to encode, from a command name and its fields; or a decoded one from a buffer. */
      constructor(command: string | Buffer, fields?: PduFields);
      command: string;
      command_length: number;
      command_id: number;
      command_status: number;
      sequence_number: number;
      [field: string]: unknown;
      toBuffer(): Buffer;
      isResponse(): boolean;
      /** false when the buffer holds less than one whole PDU. */
      static fromBuffer(buffer: Buffer): PDU | false;
      static maxLength: number;
      /** The response to this request, same sequence_number (generic_nack for an unknown one). */
      response(fields?: PduFields): PDU;
    }

    type ResponseCallback = (pdu: PDU) => void;

    /** One SMPP connection; emits 'pdu' and each command's name with the decoded PDU. */
    class Session extends EventEmitter {
      readonly socket: Socket;
      send(pdu: PDU, responseCallback?: ResponseCallback): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      // One shortcut per command: builds the PDU from its fields and sends it.
      bind_transmitter(fields: PduFields, responseCallback?: ResponseCallback): boolean;
      bind_receiver(fields: PduFields, responseCallback?: ResponseCallback): boolean;
      bind_transceiver(fields: PduFields, responseCallback?: ResponseCallback): boolean;
      submit_sm(fields: PduFields, responseCallback?: ResponseCallback): boolean;
      enquire_link(fields: PduFields, responseCallback?: ResponseCallback): boolean;
      unbind(fields: PduFields, responseCallback?: ResponseCallback): boolean;
    }

    class Server extends NetServer {
      readonly sessions: Session[];
    }

    function createServer(listener: (session: Session) => void): Server;

    /** A client session; `listener` runs once the TCP connection is up. */
    function connect(options: { host: string; port: number }, listener?: () => void): Session;
  }
  export = smpp;
}
