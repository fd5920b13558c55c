import type { SenderStatus } from '../statuses.js';

export interface Sender {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly status: SenderStatus;
  readonly note: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A sender as one account sees it: its own, or shared with it by its owner. */
export interface VisibleSender extends Sender {
  readonly shared: boolean;
}

/** Sender names and whom they are shared with; requests for them: SenderRequestStore. */
export interface SenderStore {
  createSender(input: {
    accountId: number;
    name: string;
    status: SenderStatus;
    nowMs: number;
  }): Promise<Sender>;
  shareSender(senderId: number, accountId: number, nowMs: number): Promise<void>;
  findSenderByName(name: string): Promise<Sender | null>;
  isSenderSharedWith(senderId: number, accountId: number): Promise<boolean>;
  listVisibleSenders(accountId: number): Promise<VisibleSender[]>;
}
