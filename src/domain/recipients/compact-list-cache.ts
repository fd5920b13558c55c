import type { CompactRecipientList, Store } from '../ports.js';

/**
 * Compact lists never change once stored, so a process may keep the few it is paging through.
 * A small LRU: a 2M-number list is 8 MB.
 */
export class CompactListCache {
  private readonly entries = new Map<number, CompactRecipientList>();

  constructor(private readonly capacity = 8) {}

  async get(store: Store, messageId: number): Promise<CompactRecipientList> {
    const cached = this.entries.get(messageId);
    if (cached) {
      this.entries.delete(messageId);
      this.entries.set(messageId, cached);
      return cached;
    }
    const list = await store.loadCompactList(messageId);
    this.entries.set(messageId, list);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return list;
  }
}
