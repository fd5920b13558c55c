import type { SubmitResult } from './session-options.js';

/** A submit_sm encoded and waiting for a window slot; its sequence_number is written on sending. */
export interface QueuedSubmit {
  readonly pdu: Buffer;
  resolve(result: SubmitResult): void;
  reject(error: Error): void;
}

/**
 * Submits waiting for a window slot, first in first out. An array with a moving head: shift()
 * on thousands of waiters would move them all each time.
 */
export class SubmitQueue {
  private items: (QueuedSubmit | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(submit: QueuedSubmit): void {
    this.items.push(submit);
  }

  shift(): QueuedSubmit | undefined {
    if (this.head >= this.items.length) return undefined;
    const submit = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return submit;
  }

  /** Rejects every waiting submit with `error` and empties the queue. */
  failAll(error: Error): void {
    const waiting = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    for (const submit of waiting) submit?.reject(error);
  }
}
