import type { NewUser, User, UserChanges, UserRole } from './user.js';

/** People of the console (emails lower-case: normaliseEmail). */
export interface UserStore {
  createUser(input: NewUser): Promise<User>;
  findUser(id: number): Promise<User | null>;
  findUserByEmail(email: string): Promise<User | null>;
  listUsers(query: { accountId?: number; role?: UserRole }): Promise<User[]>;
  updateUser(id: number, changes: UserChanges, nowMs: number): Promise<User | null>;
  /**
   * Records `step` as the user's last TOTP step if it is later than the one stored, in one
   * statement; false when it is not (the code was used already, here or in another process).
   */
  claimTotpStep(userId: number, step: number): Promise<boolean>;
  /**
   * Removes one recovery code's hash from the user's unused ones, compare-and-set (two
   * requests racing with one code: one wins); answers how many are left, or null when the
   * hash was not among them.
   */
  consumeRecoveryCode(userId: number, codeHash: string): Promise<number | null>;
}
