/**
 * The single DynamoDB table, seen through the operations our repositories need. Every write is a
 * single-item write (dynalite has no transactions): uniqueness items are written first with a
 * condition, counters use ADD.
 */
export type Item = Record<string, unknown>;
export type Key = { pk: string; sk: string };

export interface ReadOptions {
  /**
   * Top-level attributes to return (DynamoDB's projection); every attribute when absent. A read
   * that answers the public leaves out what only the pipeline and admins use (e.g. recognition's
   * raw text), so none of it is converted or carried.
   */
  attributes?: readonly string[];
}

export interface QueryInput extends ReadOptions {
  index?: "gsi1" | "gsi2";
  partition: string;
  /** Sort-key prefix (begins_with) or an inclusive range. */
  sortPrefix?: string;
  sortBetween?: [string, string];
  limit?: number;
  descending?: boolean;
  cursor?: Item;
  /** Strongly consistent read (base table only; indexes cannot): for permission checks that must see a revocation at once. */
  consistent?: boolean;
}
/** The table refused a query's cursor: a client handed back a position the query never gave out. */
export class InvalidCursorError extends Error {
  override name = "InvalidCursorError";
}

export interface QueryPage<T extends object = Item> {
  items: T[];
  cursor?: Item;
}

export interface UpdateInput {
  key: Key;
  /** Attributes to SET. */
  set?: Item;
  /** Numeric attributes to ADD (atomic counters). */
  add?: Record<string, number>;
  remove?: string[];
  /** All must hold for the write to happen (single-item optimistic concurrency). */
  conditions?: Condition[];
}

export type Condition =
  | { attribute: string; op: "exists" | "not_exists" }
  | { attribute: string; op: "=" | "<>" | "<"; value: unknown };

export interface Table {
  get<T extends object>(key: Key, options?: ReadOptions): Promise<T | undefined>;
  /** Writes the item; with `ifAbsent`, returns false instead of overwriting an existing one. */
  put(item: Item & Key, options?: { ifAbsent?: boolean }): Promise<boolean>;
  /** Returns the item after the update, or undefined when a condition failed. */
  update<T extends object>(input: UpdateInput): Promise<T | undefined>;
  /** Returns whether an item was there to delete, so counters can follow deletions exactly. */
  delete(key: Key): Promise<boolean>;
  query<T extends object>(input: QueryInput): Promise<QueryPage<T>>;
  batchGet<T extends object>(keys: Key[], options?: ReadOptions): Promise<T[]>;
  /** Deletes many items in batches, unconditionally: for sweeps that need no count of what was there. */
  batchDelete(keys: Key[]): Promise<void>;
  /** Writes many new items in batches, unconditionally: for bulk imports nobody else writes to yet. */
  batchPut(items: (Item & Key)[]): Promise<void>;
}
