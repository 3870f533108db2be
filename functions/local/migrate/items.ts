import { createHash } from "node:crypto";
import {
  type AttributeValue,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type DynamoDBClient,
  ScanCommand,
} from "@aws-sdk/client-dynamodb";
import { tableSchema } from "../../src/data/table-schema";

export type Item = Record<string, AttributeValue>;

/**
 * Items a deployment must not receive from a local runtime, and why (docs/deploy.md, "Moving a
 * local event to AWS"). Everything else is copied as it is: its keys already feed the indexes of a
 * stack deployed with the same schema, and the counters and their `countsGeneration` are the
 * runtime's own, recounted at its last start.
 */
export function skipReason(item: Item, nowSeconds: number): string | undefined {
  const pk = item.pk?.S ?? "";
  // Attempts and locks per client of the local network: they mean nothing behind CloudFront.
  if (pk.startsWith("LOGIN#")) return "intentos de acceso";
  // The local preflight's turn: a run of this runtime, which the deployment must not wait for.
  if (pk === "PREFLIGHT" && item.sk?.S === "LOCK") return "turno del preflight";
  // DynamoDB would delete it at once; dynalite never expires anything.
  const ttl = Number(item.ttl?.N);
  if (Number.isFinite(ttl) && ttl < nowSeconds) return "caducados";
  return undefined;
}

/**
 * The kind of an item, for the counts of the report: the leading word of its partition and sort
 * keys (`EVENT/BIB` a participant, `PHOTO/PHOTO` a photo, `SALE/DL` a sale's download count).
 */
export function kindOf(item: Item): string {
  const word = (value: string | undefined) => (value ?? "?").split("#")[0] || "?";
  return `${word(item.pk?.S)}/${word(item.sk?.S)}`;
}

/** SHA-256 of the item as canonical JSON: attributes in name order, sets in value order. */
export function itemHash(item: Item): string {
  return createHash("sha256").update(canonical(item)).digest("hex");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString("base64"));
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries
      .map(([name, inner]) => {
        const sorted = (name === "SS" || name === "NS") && Array.isArray(inner) ? [...inner].sort() : inner;
        return `${JSON.stringify(name)}:${canonical(sorted)}`;
      })
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export const keyOf = (item: Item): Item => ({
  [tableSchema.partitionKey]: item[tableSchema.partitionKey] as AttributeValue,
  [tableSchema.sortKey]: item[tableSchema.sortKey] as AttributeValue,
});
export const keyText = (item: Item) => `${item.pk?.S ?? ""} ${item.sk?.S ?? ""}`;

/** One page of the table, in its raw attribute values (numbers and sets kept exactly as stored). */
export async function scanPage(client: DynamoDBClient, tableName: string, cursor: Item | undefined, limit: number) {
  const page = await client.send(
    new ScanCommand({
      TableName: tableName,
      Limit: limit,
      ConsistentRead: true,
      ...(cursor ? { ExclusiveStartKey: cursor } : {}),
    }),
  );
  return { items: page.Items ?? [], cursor: page.LastEvaluatedKey };
}

/** The items at these keys, by key text; keys DynamoDB left unprocessed are asked again. */
export async function getItems(client: DynamoDBClient, tableName: string, keys: Item[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (let start = 0; start < keys.length; start += 100) {
    let pending: Item[] = keys.slice(start, start + 100);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await backoff(attempt);
      const answer = await client.send(
        new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of answer.Responses?.[tableName] ?? []) found.set(keyText(item), item);
      pending = answer.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return found;
}

/** Puts the items, 25 a request, writing again what DynamoDB left unprocessed (throttling) until none is left. */
export async function putItems(client: DynamoDBClient, tableName: string, items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await backoff(attempt);
      const answer = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = (answer.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
        request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : [],
      );
    }
  }
}

/** Exponential, with jitter, up to ~5 s: what AWS advises for unprocessed batch items. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.min(5_000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
