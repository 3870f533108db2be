import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Level } from "level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { createDynamoTable, documentClientSender } from "../../functions/src/adapters/aws/dynamodb-table";
import { servingIndexNames } from "../../functions/src/data/table-schema";

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

  async function withTable<T>(work: (table: ReturnType<typeof createDynamoTable>) => Promise<T>): Promise<T> {
    const dynamo = await startDynalite(dataDir);
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    try {
      await ensureTable(dynamo.endpoint, "us-east-1", "repair");
      return await work(createDynamoTable(documentClientSender(client), "repair"));
    } finally {
      client.destroy();
      await dynamo.close();
    }
  }

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
