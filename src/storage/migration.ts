/** One forward-only schema step. Both engines carry the same ids and names; only the SQL differs. */
export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}
