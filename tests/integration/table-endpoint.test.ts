import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, type LocalDynamo, startDynalite } from "../../functions/local/storage";
import { requestFrom } from "../support/http-from";

/**
 * The embedded table's HTTP endpoint listens on loopback for the SDK clients and tools of this
 * machine. dynalite itself answers any origin's CORS preflight and checks no signature, so without a
 * guard a web page open on the organizer's laptop could read and write the table through it.
 */
describe("the embedded table's endpoint admits no browser", () => {
  const tableName = "endpoint-guard";
  let dataDir: string;
  let dynamo: LocalDynamo;
  let host: string;
  /** What the SDK sends for ListTables, minus the signature dynalite never checks. */
  const listTables = (extra: Record<string, string> = {}) =>
    requestFrom("127.0.0.1", dynamo.endpoint, "POST", "/", {
      json: {},
      headers: {
        host,
        "content-type": "application/x-amz-json-1.0",
        "x-amz-target": "DynamoDB_20120810.ListTables",
        "x-amz-date": "20261202T000000Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=local/20261202/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00",
        ...extra,
      },
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-table-endpoint-"));
    dynamo = await startDynalite(dataDir);
    host = new URL(dynamo.endpoint).host;
    await ensureTable(dynamo.endpoint, "us-east-1", tableName);
  });
  afterAll(async () => {
    await dynamo.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the SDK, and a plain client naming the loopback address", async () => {
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    try {
      expect((await client.send(new ListTablesCommand({}))).TableNames).toContain(tableName);
    } finally {
      client.destroy();
    }
    const plain = await listTables();
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body).TableNames).toContain(tableName);
  });

  it("refuses a browser's CORS preflight, so no page can go on to read the table", async () => {
    const preflight = await requestFrom("127.0.0.1", dynamo.endpoint, "OPTIONS", "/", {
      headers: {
        host,
        origin: "https://pagina-cualquiera.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,x-amz-date,x-amz-target",
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a request that carries a browser's headers", async () => {
    const browserHeaders: Record<string, string>[] = [
      { origin: "https://pagina-cualquiera.example" },
      { "sec-fetch-mode": "no-cors" },
    ];
    for (const headers of browserHeaders) {
      const answer = await listTables(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).not.toContain(tableName);
    }
  });

  it("refuses a request for another host name (DNS rebinding onto 127.0.0.1)", async () => {
    const answer = await listTables({ host: `rebound.example:${new URL(dynamo.endpoint).port}` });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain(tableName);
  });
});
