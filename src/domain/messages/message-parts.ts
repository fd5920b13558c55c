/** SMS part sizes of the spec (§8): the same for Thai and Latin text, counted in UTF-16 units. */
export const SINGLE_PART_UNITS = 70;
export const MULTI_PART_UNITS = 67;

/**
 * Splits content into the parts it is sent as. A message of at most 70 UTF-16 code units is one
 * part; a longer one is cut every 67 units, one unit earlier where the cut would separate the
 * halves of a surrogate pair.
 */
export function splitParts(content: string): string[] {
  if (content.length <= SINGLE_PART_UNITS) return [content];
  const parts: string[] = [];
  let start = 0;
  while (start < content.length) {
    let end = Math.min(start + MULTI_PART_UNITS, content.length);
    if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end -= 1;
    parts.push(content.slice(start, end));
    start = end;
  }
  return parts;
}

/** The number of parts `splitParts` would produce, without building them. */
export function countParts(content: string): number {
  if (content.length <= SINGLE_PART_UNITS) return 1;
  let count = 0;
  let start = 0;
  while (start < content.length) {
    let end = Math.min(start + MULTI_PART_UNITS, content.length);
    if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end -= 1;
    start = end;
    count += 1;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
