import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Level } from "level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, type LocalDynamo, startDynalite, untilTableActive } from "../../functions/local/storage";
import { createDynamoTable } from "../../functions/src/adapters/aws/dynamodb-table";
import { createMemoryTable } from "../../functions/src/adapters/memory/table";
import { createIds, systemClock } from "../../functions/src/adapters/system/system";
import { createBibLinkRepository } from "../../functions/src/data/bib-links";
import { createEventRepository } from "../../functions/src/data/events";
import { keys, photosOfEventPartition } from "../../functions/src/data/keys";
import { createPhotoRepository } from "../../functions/src/data/photos";
import { gsi1Attributes } from "../../functions/src/data/table-schema";
import { createUserRepository } from "../../functions/src/data/users";
import type { Table } from "../../functions/src/ports/table";
import { processedPhoto } from "../bench/seed-event";
import { activeEvent } from "../support/in-process";

/**
 * gsi1 projects only what its queries read (table-schema.ts, docs/data-model.md "Indexes"): the
 * repositories that list whole items through it take them from the table, on dynalite (which
 * stores in an index only what it projects, as DynamoDB does) and on the in-memory table (which
 * also refuses a query asking an index for what it does not project); and a data dir an older
 * version made, with gsi1 projecting everything, opens with today's indexes.
 */
const region = "us-east-1";
const eventId = 7;
const gsi1Entry = new Set(["pk", "sk", "gsi1pk", "gsi1sk", ...gsi1Attributes]);

async function seed(table: Table) {
  const photos = createPhotoRepository(table);
  const events = createEventRepository(table);
  const users = createUserRepository(table, createIds(systemClock), systemClock);
  await events.create(activeEvent(eventId, "Carrera de la Luz"));
  const at = new Date("2026-11-29T12:00:00Z");
  const written = [0, 1, 2].map((index) =>
    processedPhoto(eventId, index, [String(100 + index)], new Date(at.getTime() + index * 1000)),
  );
  for (const { textDetections = [], ...photo } of written) {
    await photos.createPending(photo);
    await photos.storeText(photo.id, textDetections);
    await createBibLinkRepository(table).linkBib(
      eventId,
      photo.detectedDorsals[0] as string,
      photo.id,
      photo.uploadedAt,
    );
  }
  await users.create({
    email: "ana@example.co",
    passwordHash: "not-a-hash",
    role: "photographer",
    name: "Ana Gómez",
    assignedEventId: eventId,
  });
  return written.map(({ textDetections: _text, ...photo }) => photo);
}

describe.each<[string, () => Promise<{ table: Table; close: () => Promise<void> }>]>([
  ["the in-memory table", async () => ({ table: createMemoryTable(), close: async () => undefined })],
  [
    "dynalite",
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-lean-"));
      const dynamo = await startDynalite(dataDir);
      await ensureTable(dynamo.endpoint, region, "lean");
      return {
        table: createDynamoTable(dynamo.send, "lean"),
        close: async () => {
          await dynamo.close();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
])("gsi1 on %s", (_name, open) => {
  let table: Table;
  let close: () => Promise<void>;
  let written: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    ({ table, close } = await open());
    written = await seed(table);
  });
  afterAll(() => close());

  it("holds only the projected attributes of a photo", async () => {
    const page = await table.query<Record<string, unknown>>({
      index: "gsi1",
      partition: photosOfEventPartition(eventId),
    });
    expect(page.items).toHaveLength(3);
    for (const entry of page.items) {
      expect(Object.keys(entry).filter((name) => !gsi1Entry.has(name))).toEqual([]);
      expect(entry).toHaveProperty("processingStatus", "successful");
      expect(entry).not.toHaveProperty("bibs");
    }
  });

  it("lists whole photos, users and events through it, in the index's order", async () => {
    const listed = await createPhotoRepository(table).listByEvent(eventId, { unbibbed: false, limit: 2 });
    expect(listed.photos).toEqual(written.slice(0, 2).map((photo) => expect.objectContaining(photo)));
    const rest = await createPhotoRepository(table).listByEvent(eventId, {
      unbibbed: false,
      limit: 2,
      cursor: listed.cursor,
    });
    expect(rest.photos.map((photo) => photo.id)).toEqual([written[2]?.id]);
    const users = await createUserRepository(table, createIds(systemClock), systemClock).page({ limit: 10 });
    expect(users.users).toEqual([expect.objectContaining({ email: "ana@example.co", name: "Ana Gómez" })]);
    expect(await createEventRepository(table).list()).toEqual([
      expect.objectContaining({ id: eventId, name: "Carrera de la Luz" }),
    ]);
  });

  it("answers the recount's page and a photo's bibs from the index alone", async () => {
    const counting = await createPhotoRepository(table).countingPage(eventId, { limit: 10 });
    expect(counting.photos[0]).toEqual(
      expect.objectContaining({ processingStatus: "successful", faces: written[0]?.faces }),
    );
    expect(await createBibLinkRepository(table).linkedBibs(written[1]?.id as string)).toEqual(["101"]);
  });
});

describe("the in-memory table", () => {
  it("refuses to read from an index what it does not project, as DynamoDB cannot", async () => {
    const table = createMemoryTable();
    await expect(
      table.query({ index: "gsi1", partition: photosOfEventPartition(eventId), attributes: ["id", "bibs"] }),
    ).rejects.toThrow(/gsi1 does not project bibs/);
  });
});

describe("a data dir made by a version whose gsi1 projected everything", () => {
  let dataDir: string;
  let dynamo: LocalDynamo | undefined;
  let written: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-old-indexes-"));
    // The table as the older ensureTable created it, and items written through it.
    const old = await startDynalite(dataDir);
    const client = new DynamoDBClient({
      endpoint: old.endpoint,
      region,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    const pair = (name: string) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: `${name}pk`, KeyType: "HASH" as const },
        { AttributeName: `${name}sk`, KeyType: "RANGE" as const },
      ],
      Projection: { ProjectionType: "ALL" as const },
    });
    await client.send(
      new CreateTableCommand({
        TableName: "dorsal",
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: ["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk"].map((name) => ({
          AttributeName: name,
          AttributeType: "S",
        })),
        KeySchema: [
          { AttributeName: "pk", KeyType: "HASH" },
          { AttributeName: "sk", KeyType: "RANGE" },
        ],
        GlobalSecondaryIndexes: [pair("gsi1"), pair("gsi2")],
      }),
    );
    await untilTableActive(client, "dorsal");
    client.destroy();
    const oldTable = createDynamoTable(old.send, "dorsal", { gsi1: "gsi1", gsi2: "gsi2" });
    written = await seed(oldTable);
    await old.close();

    dynamo = await startDynalite(dataDir);
    await ensureTable(dynamo.endpoint, region, "dorsal");
  });
  afterAll(async () => {
    await dynamo?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("opens with today's indexes, built from the items, and the old one gone", async () => {
    const client = new DynamoDBClient({
      endpoint: dynamo?.endpoint as string,
      region,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    const { Table: described } = await client.send(new DescribeTableCommand({ TableName: "dorsal" }));
    client.destroy();
    expect(
      described?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.Projection?.ProjectionType]),
    ).toEqual([
      ["gsi1v2", "INCLUDE"],
      ["gsi2", "ALL"],
    ]);
    const table = createDynamoTable((dynamo as LocalDynamo).send, "dorsal");
    const listed = await createPhotoRepository(table).listByEvent(eventId, { unbibbed: false, limit: 10 });
    expect(listed.photos).toEqual(written.map((photo) => expect.objectContaining(photo)));
    expect(await createEventRepository(table).list()).toHaveLength(1);
    expect(await createPhotoRepository(table).textOf({ id: written[0]?.id as string })).not.toEqual([]);
    expect(await table.get(keys.photo(written[0]?.id as string))).toBeDefined();
  });

  it("keeps no entry of the old index", async () => {
    await dynamo?.close();
    dynamo = undefined;
    const db = new Level<string, unknown>(path.join(dataDir, "dynamodb"), { valueEncoding: "json" });
    await db.open();
    const old: string[] = [];
    for await (const key of db.keys({ gte: "index-global~dorsal~gsi1~", lt: "index-global~dorsal~gsi1~\uffff" })) {
      old.push(key);
    }
    await db.close();
    expect(old).toEqual([]);
  });
});
