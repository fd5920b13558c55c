/** Numbers as the send path carries them: valid ones as 9-digit national suffixes. */
export interface NumberList {
  /** Valid numbers, deduplicated, in first-occurrence order. */
  readonly valid: Uint32Array;
  /** Strings that are not valid numbers, deduplicated, in first-occurrence order. */
  readonly invalid: readonly string[];
  /** Numbers as given, before deduplication. */
  readonly requested: number;
  /** Numbers dropped because they repeat an earlier one. */
  readonly duplicates: number;
}
