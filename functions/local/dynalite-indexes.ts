import { isDeepStrictEqual } from "node:util";
import { Level } from "level";
import { type GlobalIndex, tableSchema } from "../src/data/table-schema";

interface StoredIndex {
  IndexName: string;
  KeySchema: { AttributeName: string; KeyType: "HASH" | "RANGE" }[];
  Projection: { ProjectionType: "ALL" | "INCLUDE"; NonKeyAttributes?: string[] };
  [field: string]: unknown;
}
interface StoredTable {
  TableName: string;
  TableArn: string;
  GlobalSecondaryIndexes?: StoredIndex[];
  [field: string]: unknown;
}

const prefixRange = (prefix: string) => ({ gte: prefix, lt: `${prefix}\uffff` });

export const projectionOf = (index: GlobalIndex): StoredIndex["Projection"] =>
  index.projection.type === "ALL"
    ? { ProjectionType: "ALL" }
    : { ProjectionType: "INCLUDE", NonKeyAttributes: [...index.projection.attributes] };

export const keySchemaOf = (index: GlobalIndex): StoredIndex["KeySchema"] => [
  { AttributeName: index.partitionKey, KeyType: "HASH" },
  { AttributeName: index.sortKey, KeyType: "RANGE" },
];

/**
 * Gives a table an older version created the global indexes of today's schema. dynalite accepts
 * UpdateTable's index creation and deletion but does neither, so the definition it keeps is
 * rewritten on the closed database: an index whose name and projection still match is kept, one
 * the schema no longer has loses its entries, and a new one is declared empty, for
 * `repairDynaliteIndexes` (run next) to fill from the items. Only tables with the schema's key
 * attributes are touched. Returns the names of the indexes it declared.
 */
export async function adoptSchemaIndexes(path: string): Promise<string[]> {
  const db = new Level<string, unknown>(path, { valueEncoding: "json" });
  await db.open();
  const declared: string[] = [];
  try {
    for await (const [key, value] of db.iterator(prefixRange("table~"))) {
      const table = value as StoredTable;
      const stored = table.GlobalSecondaryIndexes ?? [];
      const ours = stored.some((index) =>
        tableSchema.globalIndexes.some((wanted) => isDeepStrictEqual(index.KeySchema, keySchemaOf(wanted))),
      );
      if (!ours) continue;
      const next = tableSchema.globalIndexes.map((wanted): StoredIndex => {
        const kept = stored.find(
          (index) => index.IndexName === wanted.name && isDeepStrictEqual(index.Projection, projectionOf(wanted)),
        );
        if (kept) return kept;
        declared.push(wanted.name);
        return {
          IndexName: wanted.name,
          KeySchema: keySchemaOf(wanted),
          Projection: projectionOf(wanted),
          IndexStatus: "ACTIVE",
          IndexArn: `${table.TableArn}/index/${wanted.name}`,
          IndexSizeBytes: 0,
          ItemCount: 0,
          ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0, NumberOfDecreasesToday: 0 },
        };
      });
      if (isDeepStrictEqual(next, stored)) continue;
      for (const index of stored) {
        if (next.includes(index)) continue;
        for await (const entry of db.keys(prefixRange(`index-global~${table.TableName}~${index.IndexName}~`))) {
          await db.del(entry);
        }
      }
      await db.put(key, { ...table, GlobalSecondaryIndexes: next });
    }
  } finally {
    await db.close();
  }
  return declared;
}
