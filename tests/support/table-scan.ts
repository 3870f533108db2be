import { readdir } from "node:fs/promises";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { createDynamoTable, documentClientSender } from "../../functions/src/adapters/aws/dynamodb-table";
import type { Table } from "../../functions/src/ports/table";

/** Every item a stopped runtime left in its table: what a crash or deletion test checks for leftovers. */
export async function tableItems(dataDir: string): Promise<Record<string, unknown>[]> {
  const dynamo = await startDynalite(dataDir);
  try {
    return await scanTable(dynamo.endpoint);
  } finally {
    await dynamo.close();
  }
}

/**
 * The table of a stopped runtime through the product's own table adapter, for a test that leaves
 * items as the runtime's code would have (a recount stopped halfway, say) before starting it again.
 * `create` makes a table of another name first, for a test of the stand-in itself.
 */
export async function withStoppedTable<T>(
  dataDir: string,
  work: (table: Table) => Promise<T>,
  { tableName = "dorsal", create = false }: { tableName?: string; create?: boolean } = {},
): Promise<T> {
  const dynamo = await startDynalite(dataDir);
  const client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    if (create) await ensureTable(dynamo.endpoint, "us-east-1", tableName);
    return await work(createDynamoTable(documentClientSender(client), tableName));
  } finally {
    client.destroy();
    await dynamo.close();
  }
}

/** Every item of the table behind a dynalite endpoint, a running runtime's included. */
export async function scanTable(endpoint: string): Promise<Record<string, unknown>[]> {
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    const items: Record<string, unknown>[] = [];
    const doc = DynamoDBDocumentClient.from(client);
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({ TableName: "dorsal", ...(cursor ? { ExclusiveStartKey: cursor } : {}) }),
      );
      items.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return items;
  } finally {
    client.destroy();
  }
}

/**
 * Items of the given events or photos, wherever they sit: by their event id, their keys, or their
 * photo id. A deletion's own report (the events screen's) is not one of them.
 */
export function itemsOf(items: Record<string, unknown>[], eventIds: number[], photoIds: string[] = []) {
  const events = new Set(eventIds);
  const photos = new Set(photoIds);
  return items.filter((item) => {
    if (item.type === "eventDeletion") return false;
    const keysText = [item.pk, item.gsi1pk, item.gsi2pk].map(String).join(" ");
    return (
      events.has(Number(item.eventId)) ||
      eventIds.some((id) => new RegExp(`EVENT#${id}(#|$| )`).test(keysText)) ||
      photos.has(String(item.photoId ?? item.id))
    );
  });
}

/** Stored objects (s3rver keeps one `…._S3rver_object` file per object) under an event's prefix. */
export async function storedObjects(dataDir: string, eventId: number): Promise<number> {
  return (await storedObjectKeys(dataDir, eventId)).length;
}

/** The keys (bucket/key) of the stored objects under an event's prefix. */
export async function storedObjectKeys(dataDir: string, eventId: number): Promise<string[]> {
  const root = path.join(dataDir, "s3");
  const keys: string[] = [];
  // Only the event's own folders: on a shared runtime another suite may be removing its own
  // meanwhile, and a scan of the whole store met a folder that vanished mid-scan (ENOENT).
  for (const bucket of await readdir(root)) {
    const prefix = `${bucket}/eventos/${eventId}`;
    const files = await readdir(path.join(root, prefix), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
    for (const file of files) {
      if (file.endsWith("._S3rver_object")) keys.push(`${prefix}/${file.replace(/\._S3rver_object$/, "")}`);
    }
  }
  return keys;
}
