// Everything a session writes within one turn of the event loop leaves as one socket write: PDUs
// queue up and are joined at setImmediate. A false return of socket.write() marks the writer
// blocked until 'drain', and the session takes no new submit meanwhile, so a slow SMSC makes
// Nok slow down instead of buffering without bound in memory.
import type { Socket } from 'node:net';

export class BatchedWriter {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private immediate: NodeJS.Immediate | null = null;
  private isBlocked = false;

  constructor(
    private readonly socket: Socket,
    onDrain: () => void,
  ) {
    socket.on('drain', () => {
      this.isBlocked = false;
      onDrain();
    });
  }

  /** The socket's buffer is over its high-water mark; 'drain' has not come yet. */
  get blocked(): boolean {
    return this.isBlocked;
  }

  write(pdu: Buffer): void {
    this.queue.push(pdu);
    this.queuedBytes += pdu.length;
    this.immediate ??= setImmediate(this.flush);
  }

  /** Writes what is queued now (before an end of the connection). */
  readonly flush = (): void => {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.queue.length === 0 || this.socket.destroyed) return this.discard();
    const data =
      this.queue.length === 1
        ? (this.queue[0] as Buffer)
        : Buffer.concat(this.queue, this.queuedBytes);
    this.queue = [];
    this.queuedBytes = 0;
    if (!this.socket.write(data)) this.isBlocked = true;
  };

  /** Drops what is queued and stops the pending flush. */
  discard(): void {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    this.queue = [];
    this.queuedBytes = 0;
  }
}
