export interface ContactGroup {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
}

/** A page of a list searched by number: `search` is a run of digits found anywhere in it. */
export interface NumberPageQuery {
  readonly search: string | null;
  readonly offset: number;
  readonly limit: number;
}

/** An account's contact groups and their members. */
export interface ContactsStore {
  createContactGroup(input: {
    accountId: number;
    name: string;
    nowMs: number;
  }): Promise<ContactGroup>;
  findContactGroup(id: number): Promise<ContactGroup | null>;
  /** The account's contact groups, by name, with how many numbers each holds. */
  listContactGroups(accountId: number): Promise<(ContactGroup & { size: number })[]>;
  renameContactGroup(groupId: number, name: string): Promise<void>;
  /** Deletes the group and its members; returns how many members it had. */
  deleteContactGroup(groupId: number): Promise<number>;
  addContacts(groupId: number, msisdns: readonly string[]): Promise<number>;
  contactNumbers(groupId: number): Promise<string[]>;
  contactCount(groupId: number): Promise<number>;
  /** Members in number order, and how many match the search. */
  contactPage(groupId: number, query: NumberPageQuery): Promise<{ items: string[]; total: number }>;
  /** Removes the numbers (`66XXXXXXXXX`) from the group; returns how many were members. */
  removeContacts(groupId: number, msisdns: readonly string[]): Promise<number>;
  /**
   * How a group counts for a send, without reading its members: how many it has, and how many
   * of them are on the account's or the platform's blocklist (an entry in either form). Null
   * for a group that was ever given a member in another form than `66XXXXXXXXX` (which imports
   * never write): only reading its members tells how it counts.
   */
  contactGroupTally(
    groupId: number,
    accountId: number,
  ): Promise<{ members: number; blocked: number } | null>;
}
