/** A recipient row as the materialiser writes it. */
export interface NewRecipientRow {
  readonly seq: number;
  readonly msisdn: string;
  readonly status: string;
}

/** Where the materialiser writes recipient rows; each engine has its own twin (storage/). */
export interface RecipientChunkWriter {
  /**
   * Writes recipient rows `(fromSeq, toSeq]` of a message and advances its `materialised_upto`
   * from `fromSeq` to `toSeq`, in one transaction — on SQLite in slices, each its own
   * transaction advancing `materialised_upto` with its rows, so the event loop is never held for
   * long. Returns false, writing nothing, when `materialised_upto` was no longer `fromSeq`
   * (another worker got there first).
   */
  insertRecipientChunk(
    messageId: number,
    fromSeq: number,
    toSeq: number,
    rows: readonly NewRecipientRow[],
    nowMs: number,
  ): Promise<boolean>;
}
