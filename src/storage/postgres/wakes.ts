// Wake-ups between processes on PostgreSQL (docs/adr/0052): NOTIFY through the pool, LISTEN on
// a connection of its own. A pooler in transaction mode passes a NOTIFY but cannot hold a LISTEN
// (the session it would live in is handed to others between transactions), so the listener
// connects to NOK_DATABASE_DIRECT_URL when it is set.
import pg from 'pg';
import type { WakeTopic, Wakes } from '../engine.js';

const CHANNELS: Readonly<Record<WakeTopic, string>> = {
  materialise: 'nok_materialise',
  dispatch: 'nok_dispatch',
};
const TOPIC_OF = new Map(Object.entries(CHANNELS).map(([topic, channel]) => [channel, topic]));

/** After a broken listening connection: the first wait, doubled up to the last. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export interface PostgresWakes extends Wakes {
  /** Stops listening; notifications still being sent finish through the pool. */
  close(): Promise<void>;
}

export function postgresWakes(
  pool: pg.Pool,
  listenConfig: pg.ClientConfig,
  onError: (error: Error) => void,
): PostgresWakes {
  // One NOTIFY in flight a topic: a wake-up asked for meanwhile is one more after it, so a burst
  // of sends costs a round trip or two, not one each.
  const sending = new Set<WakeTopic>();
  const again = new Set<WakeTopic>();
  let listener: Listener | undefined;

  const notify = (topic: WakeTopic): void => {
    if (sending.has(topic)) {
      again.add(topic);
      return;
    }
    sending.add(topic);
    pool
      .query('SELECT pg_notify($1, NULL)', [CHANNELS[topic]])
      .catch((error: Error) => onError(error))
      .finally(() => {
        sending.delete(topic);
        if (again.delete(topic)) notify(topic);
      });
  };

  return {
    notify,
    listen(topics, onWake) {
      if (listener) throw new Error('this database already listens for wake-ups');
      if (topics.length > 0) listener = startListener(listenConfig, topics, onWake, onError);
    },
    async close() {
      await listener?.stop();
    },
  };
}

interface Listener {
  stop(): Promise<void>;
}

/** A client that LISTENs to `topics`, connecting again (with backoff) whenever it breaks. */
function startListener(
  config: pg.ClientConfig,
  topics: readonly WakeTopic[],
  onWake: (topic: WakeTopic) => void,
  onError: (error: Error) => void,
): Listener {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let waitMs = RECONNECT_FIRST_MS;

  const again = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, waitMs);
    retry.unref();
    waitMs = Math.min(waitMs * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    const connecting = new pg.Client(config);
    client = connecting;
    let broken = false;
    const lost = (error?: Error) => {
      if (broken) return;
      broken = true;
      if (client === connecting) client = undefined;
      connecting.end().catch(() => undefined);
      if (stopped) return;
      if (error) onError(error);
      again();
    };
    connecting.on('error', lost);
    connecting.on('end', () => lost());
    connecting.on('notification', ({ channel }) => {
      const topic = TOPIC_OF.get(channel) as WakeTopic | undefined;
      if (topic) onWake(topic);
    });
    try {
      await connecting.connect();
      await connecting.query(topics.map((topic) => `LISTEN ${CHANNELS[topic]}`).join('; '));
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (stopped) return;
    waitMs = RECONNECT_FIRST_MS;
    // What was notified while nobody here listened is not known: look now.
    for (const topic of topics) onWake(topic);
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}
