import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import { Level } from "level";

// Required, not imported: dynalite is CommonJS and "dynalite/db" a folder, which Node's ESM
// resolution refuses when the runtime runs bundled (functions/local/bundle.ts).
const { getIndexActions } = createRequire(import.meta.url)("dynalite/db") as typeof import("dynalite/db");

type StoredItem = Record<string, Record<string, unknown>>;
interface StoredTable {
  TableName: string;
  GlobalSecondaryIndexes?: { IndexName: string }[];
  LocalSecondaryIndexes?: { IndexName: string }[];
}

/** Every key of a dynalite sub-database starts with its name and `~` (db/index.js, getSubDb). */
const prefixRange = (prefix: string) => ({ gte: prefix, lt: `${prefix}\uffff` });

/**
 * DynamoDB updates an item and its index entries atomically; dynalite writes the index entries
 * first and the item after, each on its own. A process killed in between leaves an index entry of
 * an item that was never written (a phantom row in a listing) or of a version it no longer has.
 * Run on the closed database before dynalite opens it: every index is made exactly what the items
 * say, writing only what differs. Returns how many index entries were fixed.
 */
export async function repairDynaliteIndexes(path: string): Promise<number> {
  const db = new Level<string, unknown>(path, { valueEncoding: "json" });
  await db.open();
  let fixed = 0;
  try {
    for await (const value of db.values(prefixRange("table~"))) {
      fixed += await repairTable(db, value as StoredTable);
    }
  } finally {
    await db.close();
  }
  return fixed;
}

async function repairTable(db: Level<string, unknown>, table: StoredTable): Promise<number> {
  const kinds = [
    { kind: "global", indexes: table.GlobalSecondaryIndexes ?? [] },
    { kind: "local", indexes: table.LocalSecondaryIndexes ?? [] },
  ];
  let fixed = 0;
  for (const { kind, indexes } of kinds) {
    if (indexes.length === 0) continue;
    const indexPrefix = (name: string) => `index-${kind}~${table.TableName}~${name}~`;
    const expected = new Set<string>();
    for await (const item of db.values(prefixRange(`item-${table.TableName}~`))) {
      for (const put of getIndexActions(indexes, null, item as StoredItem, table).puts) {
        const key = `${indexPrefix(put.index)}${put.key}`;
        expected.add(key);
        if (isDeepStrictEqual(await db.get(key), put.item)) continue;
        await db.put(key, put.item);
        fixed++;
      }
    }
    for (const index of indexes) {
      for await (const key of db.keys(prefixRange(indexPrefix(index.IndexName)))) {
        if (expected.has(key)) continue;
        await db.del(key);
        fixed++;
      }
    }
  }
  return fixed;
}
