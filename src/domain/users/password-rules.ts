// Imports nothing: the console contract (and so the browser) reads these too.

/** Passwords shorter than this are refused when set (not when signing in). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer ones are refused everywhere (argon2 would hash them, but nobody types 1 KiB). */
export const MAX_PASSWORD_LENGTH = 1024;
