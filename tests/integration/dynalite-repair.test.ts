import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Level } from "level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servingIndexNames } from "../../functions/src/data/table-schema";
import type { Table } from "../../functions/src/ports/table";
import { withStoppedTable } from "../support/table-scan";

/**
 * dynalite writes an item's index entries and then the item, separately; a kill in between must not
 * leave phantom or stale rows in an index after the restart (DynamoDB itself never shows them).
 */
describe("local table after a kill mid-write", () => {
  let dataDir: string;
  const photo = (id: string, name: string) => ({
    pk: `PHOTO#${id}`,
    sk: "PHOTO",
    gsi1pk: "EVENT#1#PHOTOS",
    gsi1sk: `2026-11-22T10:00:0${id}Z#${id}`,
    // An attribute gsi1 projects, so the index rows carry it.
    processingStatus: name,
  });

  const withTable = <T>(work: (table: Table) => Promise<T>) =>
    withStoppedTable(dataDir, work, { tableName: "repair", create: true });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-dynrepair-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("drops index rows of items never written, restores missing ones and refreshes stale copies", async () => {
    await withTable(async (table) => {
      for (const [id, name] of [
        ["1", "one"],
        ["2", "two"],
        ["3", "three"],
      ] as const) {
        await table.put(photo(id, name));
      }
    });
    // What kills leave: photo 2's index row without its item, photo 1's item without its index
    // row, and photo 3's index row holding an older version of the item.
    const db = new Level<string, Record<string, { S?: string }>>(path.join(dataDir, "dynamodb"), {
      valueEncoding: "json",
    });
    const rowsOf = async (prefix: string) => {
      const rows: [string, Record<string, { S?: string }>][] = [];
      for await (const row of db.iterator({ gte: prefix, lt: `${prefix}\uffff` })) rows.push(row);
      return rows;
    };
    const idOf = (item: Record<string, { S?: string }>) => item.pk?.S;
    const items = await rowsOf("item-repair~");
    const indexRows = await rowsOf(`index-global~repair~${servingIndexNames.gsi1}~`);
    expect(indexRows).toHaveLength(3);
    await db.del(items.find(([, item]) => idOf(item) === "PHOTO#2")?.[0] ?? "");
    await db.del(indexRows.find(([, item]) => idOf(item) === "PHOTO#1")?.[0] ?? "");
    const [staleKey, staleItem] = indexRows.find(([, item]) => idOf(item) === "PHOTO#3") ?? [];
    await db.put(staleKey ?? "", { ...staleItem, processingStatus: { S: "old three" } });
    await db.close();

    const listed = await withTable((table) =>
      table.query<{ pk: string; processingStatus: string }>({ index: "gsi1", partition: "EVENT#1#PHOTOS" }),
    );
    expect(listed.items.map(({ pk, processingStatus }) => ({ pk, name: processingStatus }))).toEqual([
      { pk: "PHOTO#1", name: "one" },
      { pk: "PHOTO#3", name: "three" },
    ]);
  });
});
