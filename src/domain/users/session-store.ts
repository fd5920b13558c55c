import type { SessionRecord } from './user.js';

/** Console sessions, by the hash of their cookie's value. */
export interface SessionStore {
  insertSession(session: SessionRecord): Promise<void>;
  findSession(idHash: string): Promise<SessionRecord | null>;
  touchSession(idHash: string, nowMs: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of a user; answers how many there were. */
  deleteUserSessions(userId: number): Promise<number>;
  /**
   * Deletes at most `limit` sessions idle since `lastSeenBefore` or begun before
   * `createdBefore` (both inclusive: a session is over at its limit); answers how many.
   */
  purgeSessions(
    cutoffs: { lastSeenBefore: number; createdBefore: number },
    limit: number,
  ): Promise<number>;
}
