import { ReconnectBackoff } from '../domain/reconnect-backoff.js';
import type { ChunkKey, DispatchChunk, PartOutcome } from '../domain/delivery/delivery-store.js';
import { hasPart } from '../domain/delivery/part-mask.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import type { Slots } from './slots.js';
import { submitPart } from './submit-part.js';

/** A claimed chunk: parts issued and not yet settled, and whether all its parts are issued. */
export interface HeldChunk {
  readonly chunk: DispatchChunk;
  outstanding: number;
  issued: boolean;
}

export interface Claiming {
  wake(): void;
  submitted(): number;
  release(entry: HeldChunk): Promise<void>;
  /** Stops claiming and issuing; parts already issued run on. */
  stop(): Promise<void>;
}

/**
 * The claim loop: while this process has room, claims a chunk and issues every due part of it,
 * each once a slot of `maxInFlight` is free; a chunk is released once all its parts have an
 * outcome. An idle loop looks again after `idlePollMs`, or at once on `wake`.
 */
export function startClaiming(
  options: DispatcherOptions & {
    readonly now: () => number;
    readonly slots: Slots;
    readonly held: Map<string, HeldChunk>;
    readonly onOutcome: (outcome: PartOutcome) => Promise<void>;
  },
): Claiming {
  const { delivery, events, logger, owner, now, timers, slots, held } = options;
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let submitted = 0;
  // Claims failing (the store down): look again later and later, up to 32 idle polls apart;
  // a wake (a send accepted: the store is back) looks at once.
  const claimBackoff = new ReconnectBackoff(options.idlePollMs, options.idlePollMs * 32);
  let claimsFailing = false;

  function idle(delayMs = options.idlePollMs): Promise<void> {
    return new Promise((resolve) => {
      const timer = timers.after(delayMs, done);
      function done() {
        timer.clear();
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function release(entry: HeldChunk): Promise<void> {
    const key = keyOf(entry.chunk);
    try {
      const finished = await delivery.releaseChunk(owner, entry.chunk, now());
      if (finished) events.emit('messageComplete', finished);
    } catch (error) {
      // The lease runs out and the chunk is claimed again; nothing is lost.
      logger.error({ err: error, messageId: entry.chunk.messageId }, 'releasing a chunk failed');
    } finally {
      held.delete(key);
      wakeUp?.();
    }
  }

  function settle(entry: HeldChunk): void {
    entry.outstanding--;
    if (entry.outstanding === 0 && entry.issued) void release(entry);
  }

  /** Issues every due part of the chunk, each once a slot is free. */
  async function issue(entry: HeldChunk): Promise<void> {
    const { chunk } = entry;
    for (const recipient of chunk.recipients) {
      for (let part = 0; part < chunk.parts; part++) {
        if (hasPart(recipient.partsAccepted, part)) continue;
        const granted = await slots.acquire();
        if (!granted) break;
        entry.outstanding++;
        submitted++;
        const outgoing = {
          messageId: chunk.messageId,
          sender: chunk.sender,
          content: chunk.content,
          msisdn: recipient.msisdn,
          part,
        };
        void submitPart(options.route, options.retry, outgoing, recipient, now, options.observer)
          .then(options.onOutcome)
          .catch((error: unknown) =>
            logger.error({ err: error, messageId: chunk.messageId }, 'a part outcome was lost'),
          )
          .finally(() => {
            slots.release();
            settle(entry);
          });
      }
      if (stopping) break;
    }
    entry.issued = true;
    entry.outstanding++;
    settle(entry);
  }

  const loop = (async () => {
    while (!stopping) {
      // Claim while this process has room for more parts; a chunk whose parts are all issued
      // no longer needs attention here.
      const busy = [...held.values()].some((h) => !h.issued);
      if (busy) {
        await idle();
        continue;
      }
      let chunk: DispatchChunk | null;
      try {
        chunk = await delivery.claimChunk({
          owner,
          nowMs: now(),
          leaseMs: options.leaseMs,
          chunkSize: options.chunkSize,
        });
      } catch (error) {
        const retryInMs = claimBackoff.nextDelayMs();
        logger[claimsFailing ? 'warn' : 'error'](
          { err: error, retryInMs },
          'claiming a chunk failed; trying again later',
        );
        claimsFailing = true;
        await idle(retryInMs);
        continue;
      }
      if (claimsFailing) logger.info('claiming chunks again');
      claimsFailing = false;
      claimBackoff.reset();
      if (!chunk) {
        await idle();
        continue;
      }
      events.emit('chunkClaimed', {
        owner,
        messageId: chunk.messageId,
        firstSeq: chunk.firstSeq,
        lastSeq: chunk.lastSeq,
        due: chunk.recipients.length,
      });
      const entry: HeldChunk = { chunk, outstanding: 0, issued: false };
      held.set(keyOf(chunk), entry);
      void issue(entry).then(() => wakeUp?.());
    }
  })();

  return {
    wake: () => wakeUp?.(),
    submitted: () => submitted,
    release,
    async stop() {
      stopping = true;
      slots.close();
      wakeUp?.();
      await loop;
    },
  };
}

function keyOf(chunk: ChunkKey): string {
  return `${chunk.messageId}:${chunk.firstSeq}`;
}
