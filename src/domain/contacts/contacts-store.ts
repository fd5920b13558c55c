import type { Template } from '../ports.js';

/** A page of a list searched by number: `search` is a run of digits found anywhere in it. */
export interface NumberPageQuery {
  readonly search: string | null;
  readonly offset: number;
  readonly limit: number;
}

export interface BlocklistEntry {
  readonly msisdn: string;
  readonly createdAt: number;
}

/** What the console's contact groups, templates and blocklist pages read and change. */
export interface ContactsStore {
  renameContactGroup(groupId: number, name: string): Promise<void>;
  /** Deletes the group and its members; returns how many members it had. */
  deleteContactGroup(groupId: number): Promise<number>;
  contactCount(groupId: number): Promise<number>;
  /** Members in number order, and how many match the search. */
  contactPage(groupId: number, query: NumberPageQuery): Promise<{ items: string[]; total: number }>;
  /** Removes the numbers (`66XXXXXXXXX`) from the group; returns how many were members. */
  removeContacts(groupId: number, msisdns: readonly string[]): Promise<number>;

  updateTemplate(templateId: number, fields: { name: string; body: string }): Promise<Template>;
  deleteTemplate(templateId: number): Promise<void>;

  /** Entries of one blocklist scope (an account, or 0 for the platform), in number order. */
  blocklistPage(
    scopeAccountId: number,
    query: NumberPageQuery,
  ): Promise<{ items: BlocklistEntry[]; total: number }>;
  /** Removes the numbers from one scope; returns how many were on it. */
  removeFromBlocklist(scopeAccountId: number, msisdns: readonly string[]): Promise<number>;
}
