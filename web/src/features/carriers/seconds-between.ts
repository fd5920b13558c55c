/** Whole seconds from one server instant to a later one, never below 0. */
export function secondsBetween(earlier: string, later: string): number {
  return Math.max(0, Math.round((Date.parse(later) - Date.parse(earlier)) / 1000));
}
