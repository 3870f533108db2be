import { mkdir } from "node:fs/promises";
import type { IncomingMessage, RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from "@aws-sdk/client-dynamodb";
import dynalite from "dynalite";
import S3rver from "s3rver";
import type { DocumentSender } from "../src/adapters/aws/dynamodb-table";
import { tableSchema } from "../src/data/table-schema";
import { inProcessDynaliteSender, withCapturedStore } from "./dynalite-in-process";
import { adoptSchemaIndexes, keySchemaOf, projectionOf } from "./dynalite-indexes";
import { repairDynaliteIndexes } from "./dynalite-repair";
import { type DynaliteWrites, watchDynaliteWrites } from "./dynalite-write-clock";
import { discardInterruptedPuts, dropStoredCorsConfigs, hardenS3rverStore } from "./s3rver-store";

/**
 * The storage stand-ins that speak the real protocols: dynalite (DynamoDB API over LevelDB files)
 * and s3rver (S3 API over plain files), both under the data dir so a restart keeps everything.
 */
export interface LocalDynamo {
  /** The HTTP endpoint, for what speaks the protocol from outside (tests, tools, table creation). */
  endpoint: string;
  /** The same store called in this process: the runtime's own table calls. */
  send: DocumentSender;
  /** Every write the store makes, by either path: what tells a cached read it is out of date. */
  writes: DynaliteWrites;
  close(): Promise<void>;
}

export async function startDynalite(dataDir: string): Promise<LocalDynamo> {
  const dir = path.join(dataDir, "dynamodb");
  await mkdir(dir, { recursive: true });
  // A data dir of an older version has the indexes it defined; the repair fills in today's.
  await adoptSchemaIndexes(dir);
  // A kill mid-write can leave dynalite's indexes out of step with its items (see the repair).
  await repairDynaliteIndexes(dir);
  const { created: server, store } = withCapturedStore<Server>(() =>
    dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }),
  );
  // Guarded before it listens, so no request ever reaches dynalite unchecked.
  admitOnlyLocalClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    send: inProcessDynaliteSender(store),
    writes: watchDynaliteWrites(store),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * dynalite answers every origin's CORS preflight and never checks a signature, so a web page open in
 * a browser on this machine could read and write the whole table over loopback (password hashes,
 * download tokens, roles), and a name an attacker re-points at 127.0.0.1 (DNS rebinding) could do it
 * as its own origin. What uses this endpoint is SDK clients and tools, never a browser: a request
 * that comes from one (a preflight, an `Origin` or `Sec-Fetch-*` header) or names another host is
 * refused before dynalite sees it.
 */
function admitOnlyLocalClients(server: Server): void {
  const handlers = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];
  server.on("request", (request: IncomingMessage, response) => {
    const { port } = server.address() as AddressInfo;
    const addressed = loopbackNames.some((name) => request.headers.host === `${name}:${port}`);
    if (fromBrowser(request) || !addressed) {
      response.writeHead(403, { "content-type": "text/plain" }).end("Forbidden");
      return;
    }
    for (const handler of handlers) handler.call(server, request, response);
  });
}

function fromBrowser(request: IncomingMessage): boolean {
  return (
    request.method === "OPTIONS" ||
    request.headers.origin !== undefined ||
    Object.keys(request.headers).some((name) => name.startsWith("sec-fetch-"))
  );
}

export async function ensureTable(endpoint: string, region: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await createTable(client, tableName);
    await untilTableActive(client, tableName);
  } finally {
    client.destroy();
  }
}

/**
 * A new table answers writes with ResourceNotFoundException until it is ACTIVE (DynamoDB does, and
 * dynalite too, for a moment even with no creation delay), so nothing may use it before then.
 */
export async function untilTableActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === "ACTIVE");
    if (table?.TableStatus === "ACTIVE" && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`table ${tableName} is still ${table?.TableStatus} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyAttributes = [
    tableSchema.partitionKey,
    tableSchema.sortKey,
    ...tableSchema.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: "HASH" },
        { AttributeName: tableSchema.sortKey, KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: tableSchema.globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: keySchemaOf(index),
        Projection: projectionOf(index),
      })),
    }),
  );
}

/**
 * s3rver, to be mounted on the app's own port (paths `/<bucket>/...`) behind the gate of
 * object-store-server.ts, so presigned URLs point at the same origin as the app and a phone on the
 * LAN reaches both through one port.
 */
export async function createS3rver(dataDir: string, buckets: string[]): Promise<S3rver> {
  const directory = path.join(dataDir, "s3");
  await mkdir(directory, { recursive: true });
  await discardInterruptedPuts(directory);
  const s3rver = new S3rver({
    directory,
    silent: true,
    // The gate in front checks every signature (s3rver computes none for V4).
    allowMismatchedSignatures: false,
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  hardenS3rverStore(s3rver);
  await s3rver.configureBuckets();
  // CORS is the gate's: a configuration an earlier version stored (any origin) must not answer too.
  await dropStoredCorsConfigs(s3rver, buckets);
  return s3rver;
}
