import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 30 ms here,
 * slow enough to make guessing a stolen hash expensive, quick enough for a sign-in.
 */
const OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules.js';

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Whether `password` matches `passwordHash`; false (never a throw) for a malformed hash. */
export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | null = null;
/**
 * A hash no password matches, verified when the email names nobody, so a sign-in takes as long
 * whether or not the person exists.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  return decoy;
}
