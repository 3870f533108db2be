import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, type LocalDynamo, startDynalite } from "../../functions/local/storage";
import { createDynamoTable, documentClientSender } from "../../functions/src/adapters/aws/dynamodb-table";
import { readCachedTable } from "../../functions/src/adapters/local/read-cached-table";
import type { Table } from "../../functions/src/ports/table";

/**
 * The embedded runtime answers reads from memory until a write touches what they read. Whoever
 * writes — the runtime in process, or anything on dynalite's HTTP endpoint — the next read sees it,
 * also through an index whose partition an item left.
 */
describe("cached reads of the embedded table", () => {
  const tableName = "cached-reads";
  let dataDir: string;
  let dynamo: LocalDynamo;
  let cached: Table;
  let inProcess: Table;
  let overHttp: Table;
  let client: DynamoDBClient;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-cached-reads-"));
    dynamo = await startDynalite(dataDir);
    await ensureTable(dynamo.endpoint, "us-east-1", tableName);
    inProcess = createDynamoTable(dynamo.send, tableName);
    cached = readCachedTable(inProcess, dynamo.writes.of(tableName));
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    overHttp = createDynamoTable(documentClientSender(client), tableName);
  });
  afterAll(async () => {
    client.destroy();
    await dynamo.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("sees a write made over dynalite's HTTP endpoint, and one made in process, at the next read", async () => {
    const key = { pk: "EVENT#1", sk: "META" };
    expect(await cached.get(key)).toBeUndefined();
    await overHttp.put({ ...key, name: "10K Medellín" });
    expect(await cached.get(key)).toMatchObject({ name: "10K Medellín" });
    expect(await cached.get(key, { attributes: ["name"] })).toEqual({ name: "10K Medellín" });

    await overHttp.update({ key, set: { name: "Media Maratón" } });
    expect(await cached.get(key)).toMatchObject({ name: "Media Maratón" });
    expect(await cached.get(key, { attributes: ["name"] })).toEqual({ name: "Media Maratón" });

    await inProcess.delete(key);
    expect(await cached.get(key)).toBeUndefined();
  });

  it("drops an item from an index partition's cached query when an update moves it to another", async () => {
    const items = ["a", "b"].map((id) => ({ pk: `PHOTO#${id}`, sk: "META", gsi2pk: "UNBIBBED#7", gsi2sk: id }));
    for (const item of items) await inProcess.put(item);
    const unbibbed = () =>
      cached.query<{ pk: string }>({ index: "gsi2", partition: "UNBIBBED#7" }).then((page) => page.items);
    const bibbed = () =>
      cached.query<{ pk: string }>({ index: "gsi2", partition: "BIB#7#101" }).then((page) => page.items);
    expect((await unbibbed()).map((item) => item.pk)).toEqual(["PHOTO#a", "PHOTO#b"]);
    expect(await bibbed()).toEqual([]);

    await overHttp.update({ key: { pk: "PHOTO#a", sk: "META" }, set: { gsi2pk: "BIB#7#101" } });
    expect((await unbibbed()).map((item) => item.pk)).toEqual(["PHOTO#b"]);
    expect((await bibbed()).map((item) => item.pk)).toEqual(["PHOTO#a"]);

    const photos = () =>
      cached
        .batchGet<{ pk: string; gsi2pk: string }>(items.map(({ pk, sk }) => ({ pk, sk })))
        .then((found) => found.map((item) => `${item.pk} ${item.gsi2pk}`).sort());
    expect(await photos()).toEqual(["PHOTO#a BIB#7#101", "PHOTO#b UNBIBBED#7"]);
    await inProcess.update({ key: { pk: "PHOTO#b", sk: "META" }, remove: ["gsi2pk"] });
    expect(await photos()).toEqual(["PHOTO#a BIB#7#101", "PHOTO#b undefined"]);
    expect(await unbibbed()).toEqual([]);
  });

  it("gives every reader its own copy: what one caller changes, the next does not read", async () => {
    const key = { pk: "USER#1", sk: "META" };
    await inProcess.put({ ...key, roles: ["admin"] });
    const first = await cached.get<{ roles: string[] }>(key);
    first?.roles.push("photographer");
    expect(await cached.get(key)).toMatchObject({ roles: ["admin"] });
  });
});
