import type { MessageStore } from '../domain/messages/message-store.js';

/**
 * Moves every scheduled message whose time has come to `pending`. Safe to run in any number
 * of processes: the UPDATE only takes rows still `scheduled`, the same guard cancel uses.
 */
export function releaseDueMessages(store: MessageStore, nowMs: number): Promise<number[]> {
  return store.releaseDueMessages(nowMs);
}
