import type { AppliedReceipt, FinishedMessage, PartOutcome } from './delivery/delivery-store.js';

/**
 * What the scheduler and the dispatcher tell of a message's way, each once the transaction that
 * made it true has committed: a listener reads what it is told in the store. Ids are messages'
 * ids (`messages.id`).
 */
export interface LifecycleEventMap {
  /** Scheduled messages whose time came are pending now. */
  readonly messagesReleased: { readonly messageIds: readonly number[] };
  /** Recipient rows `fromSeq + 1` … `toSeq` of a message were written; `total` is all of them. */
  readonly recipientsMaterialised: {
    readonly messageId: number;
    readonly fromSeq: number;
    readonly toSeq: number;
    readonly total: number;
  };
  /** A dispatcher leased recipients `firstSeq + 1` … `lastSeq`; `due` of them await a submit. */
  readonly chunkClaimed: {
    readonly owner: string;
    readonly messageId: number;
    readonly firstSeq: number;
    readonly lastSeq: number;
    readonly due: number;
  };
  /** A group commit of carriers' answers to submits. */
  readonly outcomesStored: { readonly outcomes: readonly PartOutcome[] };
  /** A group commit of receipts; `applied` are the final ones that found their submission. */
  readonly receiptsStored: {
    readonly receipts: number;
    readonly applied: readonly AppliedReceipt[];
  };
  /**
   * A sweep committed: it matched orphan receipts to their submissions and gave `timeout` to
   * `timedOut` recipients whose receipt did not come within its window. Told after every sweep
   * call, whatever it changed (the store does not say how many orphans it matched).
   */
  readonly swept: { readonly timedOut: number };
  /** The last chunk of a message was released: it is `sent` or `failed` now. */
  readonly messageComplete: FinishedMessage;
}

export type LifecycleEventName = keyof LifecycleEventMap;

type Listener<K extends LifecycleEventName> = (event: LifecycleEventMap[K]) => void;

/**
 * A typed emitter of lifecycle events, plain TypeScript (the domain imports no `node:events`).
 * A listener runs synchronously within `emit` and must not block; its throw never reaches the
 * emitter (the dispatcher, the scheduler) but goes to `onListenerError`, by default rethrown on
 * a later turn so that it is not lost.
 */
export class LifecycleEvents {
  readonly #listeners = new Map<LifecycleEventName, Set<Listener<never>>>();

  constructor(
    private readonly onListenerError: (error: unknown, name: LifecycleEventName) => void = (
      error,
    ) =>
      queueMicrotask(() => {
        throw error;
      }),
  ) {}

  /** Calls `listener` with every `name` event until the returned function is called. */
  on<K extends LifecycleEventName>(name: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    const entry = listener as Listener<never>;
    set.add(entry);
    return () => set.delete(entry);
  }

  /**
   * The next `name` event that `matches`; rejects with the signal's reason once `signal` aborts.
   * Listening starts at the call: an event emitted before it is not seen.
   */
  once<K extends LifecycleEventName>(
    name: K,
    matches: (event: LifecycleEventMap[K]) => boolean = () => true,
    signal?: AbortSignal,
  ): Promise<LifecycleEventMap[K]> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const aborted = () => {
        off();
        reject(signal!.reason as Error);
      };
      const off = this.on(name, (event) => {
        if (!matches(event)) return;
        off();
        signal?.removeEventListener('abort', aborted);
        resolve(event);
      });
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  emit<K extends LifecycleEventName>(name: K, event: LifecycleEventMap[K]): void {
    const set = this.#listeners.get(name);
    if (!set || set.size === 0) return;
    for (const listener of [...set] as Listener<K>[]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, name);
      }
    }
  }
}
