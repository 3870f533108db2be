import type { Item, Key, QueryInput, QueryPage, Table } from "../ports/table";

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

/**
 * A page of whole items found through an index that does not project them (gsi1, see
 * table-schema.ts): the entries' keys from the index, then the items from the table in one batch
 * get, in the index's order. An item deleted between the two reads is left out.
 */
export async function queryThenGet<T extends object>(table: Table, input: QueryInput): Promise<QueryPage<T>> {
  const page = await table.query<Key>({ ...input, attributes: ["pk", "sk"] });
  const found = await table.batchGet<T & Key>(page.items.map(({ pk, sk }) => ({ pk, sk })));
  const byKey = new Map(found.map((item) => [`${item.pk}\u0000${item.sk}`, item]));
  return {
    items: page.items.flatMap(({ pk, sk }) => byKey.get(`${pk}\u0000${sk}`) ?? []),
    ...(page.cursor ? { cursor: page.cursor } : {}),
  };
}

/** Every whole item an index query matches (as `queryAll`), for lists small by nature or read rarely. */
export async function queryAllThenGet<T extends object>(table: Table, input: Omit<QueryInput, "cursor">): Promise<T[]> {
  const items: T[] = [];
  let cursor: Item | undefined;
  do {
    const page = await queryThenGet<T>(table, { ...input, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
}
