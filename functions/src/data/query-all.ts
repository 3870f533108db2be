import type { Item, QueryInput, Table } from "../ports/table";

/** Every item a query matches, page after page (for lists that are small by nature, or read rarely). */
export async function queryAll<T extends object>(table: Table, input: Omit<QueryInput, "cursor">): Promise<T[]> {
  const items: T[] = [];
  let cursor: Item | undefined;
  do {
    const page = await table.query<T>({ ...input, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
}
