import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';

export interface SearchTerm {
  /**
   * What the list should ask for: the field's trimmed text once typing has paused, and only
   * text the server's schema takes; `null` while the field holds text it refuses.
   */
  term: string | null;
  /** What the field says at once about text the server would refuse, or undefined. */
  error: string | undefined;
}

/**
 * A search field's term, checked by the server's own schema for that query field. Only text
 * the schema takes is debounced, so the term never holds refused text: shortening a search that
 * was too long cannot ask for the long one while the debounce catches up (which a check on the
 * field alone allowed, and the server answered 400). Lengths are counted as the server counts
 * them (see `tooLong`). The field's words can be given for text too long and for text refused
 * for another reason.
 */
export function useSearchTerm(
  schema: ZodType,
  text: string,
  { delay = 300, tooLong, invalid }: { delay?: number; tooLong?: string; invalid?: string } = {},
): SearchTerm {
  const { t } = useTranslation();
  const trimmed = text.trim();
  const result = schema.safeParse(trimmed);
  const [term] = useDebouncedValue(result.success ? trimmed : null, delay);
  if (result.success) return { term, error: undefined };
  const issue = result.error.issues[0];
  const error =
    issue?.code === 'too_big'
      ? (tooLong ?? t('errors.tooLong', { count: Number(issue.maximum) }))
      : (invalid ?? t('errors.searchInvalid'));
  return { term, error };
}
