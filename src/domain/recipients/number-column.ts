/** Header cells that name the column of numbers: `phone`, `mobile`, `msisdn`, `เบอร์โทร`… */
const NUMBER_COLUMN = /msisdn|phone|mobile|number|tel|เบอร์|โทร/i;

/**
 * The rule every number file follows for its first row (a send's upload, a group's or the
 * blocklist's import): a first row in which no cell has a digit is a header, and the numbers
 * are in the first column it names as numbers (or the first column when it names none).
 * Returns that column for a header, and null when the row is data.
 */
export function headerNumberColumn(cells: readonly string[]): number | null {
  if (cells.some((cell) => /\d/.test(cell))) return null;
  const named = cells.findIndex((cell) => NUMBER_COLUMN.test(cell));
  return named === -1 ? 0 : named;
}
