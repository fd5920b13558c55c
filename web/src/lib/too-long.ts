import type { ZodType } from 'zod';

/**
 * Whether a field's schema from the server's contract refuses `value` as too long. A field
 * checks this instead of an input's `maxLength`, which counts UTF-16 units and so cuts a text of
 * emoji at half the server's limit; zod counts characters (code points) as the server does.
 */
export function tooLong(schema: ZodType, value: unknown): boolean {
  const result = schema.safeParse(value);
  return !result.success && result.error.issues.some((issue) => issue.code === 'too_big');
}
