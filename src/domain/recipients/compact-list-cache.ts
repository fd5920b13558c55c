import type { CompactRecipientList, RecipientStore } from './recipient-store.js';
import { NumberSearchIndex } from './number-search-index.js';

/**
 * Compact lists never change once stored, so a process may keep the few it is paging through,
 * and the search indexes built from them. Small LRUs: a 2M-number list is 8 MB, its index 24 MB.
 */
export class CompactListCache {
  private readonly lists = new Map<number, CompactRecipientList>();
  private readonly indexes = new Map<number, NumberSearchIndex>();

  constructor(
    private readonly capacity = 8,
    private readonly indexCapacity = 4,
  ) {}

  async get(store: RecipientStore, messageId: number): Promise<CompactRecipientList> {
    return (
      touch(this.lists, messageId) ??
      remember(this.lists, this.capacity, messageId, await store.loadCompactList(messageId))
    );
  }

  async searchIndex(store: RecipientStore, messageId: number): Promise<NumberSearchIndex> {
    return (
      touch(this.indexes, messageId) ??
      remember(
        this.indexes,
        this.indexCapacity,
        messageId,
        NumberSearchIndex.build(await this.get(store, messageId)),
      )
    );
  }
}

function touch<T>(entries: Map<number, T>, key: number): T | undefined {
  const value = entries.get(key);
  if (value !== undefined) {
    entries.delete(key);
    entries.set(key, value);
  }
  return value;
}

function remember<T>(entries: Map<number, T>, capacity: number, key: number, value: T): T {
  entries.set(key, value);
  if (entries.size > capacity) entries.delete(entries.keys().next().value!);
  return value;
}
