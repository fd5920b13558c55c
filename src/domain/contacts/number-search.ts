/**
 * The digits to look for in stored numbers (`66XXXXXXXXX`) for what a person typed: a search
 * starting with the national 0 means the same number with 66. Null: no search.
 */
export function numberSearch(text: string | undefined): string | null {
  const digits = (text ?? '').replace(/\D/g, '');
  if (digits === '') return null;
  return digits.startsWith('0') ? `66${digits.slice(1)}` : digits;
}
