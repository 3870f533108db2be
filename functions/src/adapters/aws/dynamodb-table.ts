import { ConditionalCheckFailedException, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { type IndexKeys, servingIndexNames } from "../../data/table-schema";
import {
  InvalidCursorError,
  type Item,
  type Key,
  type QueryInput,
  type QueryPage,
  type ReadOptions,
  type Table,
  type UpdateInput,
} from "../../ports/table";

/** The DynamoDB operations the Table port needs, named as the API names them. */
export type DynamoOperation =
  | "GetItem"
  | "PutItem"
  | "UpdateItem"
  | "DeleteItem"
  | "Query"
  | "BatchGetItem"
  | "BatchWriteItem";

/** What those operations answer, with attribute values as plain JavaScript (the document client's view). */
export interface DocumentOutput {
  Item?: Item;
  Items?: Item[];
  Attributes?: Item;
  LastEvaluatedKey?: Item;
  Responses?: Record<string, Item[]>;
  UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
  UnprocessedItems?: Record<string, NonNullable<BatchWriteCommandInput["RequestItems"]>[string]>;
}

/**
 * Sends one operation, its input in the document client's shape (plain values, not attribute
 * values). Errors keep DynamoDB's names (ConditionalCheckFailedException, ValidationException).
 */
export type DocumentSender = (operation: DynamoOperation, input: Record<string, unknown>) => Promise<DocumentOutput>;

const commands = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  BatchGetItem: BatchGetCommand,
  BatchWriteItem: BatchWriteCommand,
} as const;

/** The AWS SDK's document client: DynamoDB itself, or any endpoint that speaks its protocol. */
export function documentClientSender(client: DynamoDBClient): DocumentSender {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return async (operation, input) => {
    // Each command class takes its own input type; the port's code builds inputs of the right shape.
    const Command = commands[operation] as unknown as new (input: Record<string, unknown>) => never;
    return (await doc.send(new Command(input))) as DocumentOutput;
  };
}

const readOperations: ReadonlySet<DynamoOperation> = new Set(["GetItem", "Query", "BatchGetItem"]);

/**
 * On race day thousands of athletes ask for the same event at once: identical reads in flight
 * share one answer (each caller gets its own copy). A write through this table, from its start to
 * its end, lets no later read join an earlier one, so a read that starts after a write answered
 * always sees it. (The local runtime sends every table call of its process through one table; on
 * AWS a Lambda instance serves one request at a time.)
 */
function coalescingIdenticalReads(send: DocumentSender): DocumentSender {
  let inFlight = new Map<string, Promise<DocumentOutput>>();
  return async (operation, input) => {
    if (!readOperations.has(operation)) {
      inFlight = new Map();
      try {
        return await send(operation, input);
      } finally {
        inFlight = new Map();
      }
    }
    const id = `${operation}\n${JSON.stringify(input)}`;
    let answer = inFlight.get(id);
    if (!answer) {
      const entries = inFlight;
      const asked = send(operation, input);
      answer = asked;
      entries.set(id, asked);
      const forget = () => {
        if (entries.get(id) === asked) entries.delete(id);
      };
      asked.then(forget, forget);
    }
    return structuredClone(await answer);
  };
}

/**
 * The Table port over DynamoDB's API: on AWS through the SDK (`documentClientSender`); the local
 * runtime sends the same operations to dynalite, in process.
 */
/**
 * `indexNames` says which index of the table serves each key pair: the schema's, except while a
 * deployment is switching to a new one (docs/deploy.md).
 */
export function createDynamoTable(
  sendOperation: DocumentSender,
  tableName: string,
  indexNames: Record<IndexKeys, string> = servingIndexNames,
): Table {
  const send = coalescingIdenticalReads(sendOperation);
  const isConditionFailure = (error: unknown) =>
    error instanceof ConditionalCheckFailedException ||
    (error instanceof Error && error.name === "ConditionalCheckFailedException");

  /**
   * DynamoDB's refusals of an ExclusiveStartKey ("The provided starting key is invalid", "… does
   * not match the range key predicate", "… is outside query boundaries", "Exclusive Start Key must
   * have same size as table's key schema").
   */
  const isStartKeyRefusal = (error: unknown) =>
    error instanceof Error &&
    error.name === "ValidationException" &&
    /starting key|exclusive ?start ?key/i.test(error.message);

  type WriteRequest = NonNullable<BatchWriteCommandInput["RequestItems"]>[string][number];
  /** BatchWriteItem takes 25 requests; the chunks of one call go out together. */
  const batchWrite = async (requests: WriteRequest[]) => {
    const writeChunk = async (chunk: WriteRequest[]) => {
      let pending: WriteRequest[] | undefined = chunk;
      // As with batchGet: throttled writes come back unprocessed and are sent again.
      while (pending && pending.length > 0) {
        const out: DocumentOutput = await send("BatchWriteItem", { RequestItems: { [tableName]: pending } });
        pending = out.UnprocessedItems?.[tableName];
      }
    };
    const chunks: WriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
    await Promise.all(chunks.map(writeChunk));
  };

  /** ProjectionExpression through placeholders: attribute names may be reserved words (`name`, `status`). */
  const projection = (attributes: readonly string[] | undefined, names: Record<string, string> = {}) => {
    if (!attributes) return {};
    const placeholders = attributes.map((attribute, at) => {
      const placeholder = `#r${at}`;
      names[placeholder] = attribute;
      return placeholder;
    });
    return { ProjectionExpression: placeholders.join(", "), ExpressionAttributeNames: names };
  };

  return {
    async get<T extends object>(key: Key, options?: ReadOptions) {
      const out = await send("GetItem", {
        TableName: tableName,
        Key: key,
        ConsistentRead: true,
        ...projection(options?.attributes),
      });
      return out.Item as T | undefined;
    },

    async put(item, options) {
      try {
        await send("PutItem", {
          TableName: tableName,
          Item: item,
          ...(options?.ifAbsent ? { ConditionExpression: "attribute_not_exists(pk)" } : {}),
        });
        return true;
      } catch (error) {
        if (options?.ifAbsent && isConditionFailure(error)) return false;
        throw error;
      }
    },

    async update<T extends object>(input: UpdateInput) {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const sets: string[] = [];
      const adds: string[] = [];
      const conditions: string[] = [];
      let n = 0;
      const name = (attribute: string) => {
        const placeholder = `#a${n++}`;
        names[placeholder] = attribute;
        return placeholder;
      };
      const value = (v: unknown) => {
        const placeholder = `:v${n++}`;
        values[placeholder] = v;
        return placeholder;
      };
      for (const [attribute, v] of Object.entries(input.set ?? {})) {
        if (v !== undefined) sets.push(`${name(attribute)} = ${value(v)}`);
      }
      for (const [attribute, v] of Object.entries(input.add ?? {})) adds.push(`${name(attribute)} ${value(v)}`);
      const removes = (input.remove ?? []).map(name);
      for (const condition of input.conditions ?? []) {
        if ("value" in condition) {
          conditions.push(`${name(condition.attribute)} ${condition.op} ${value(condition.value)}`);
        } else {
          const fn = condition.op === "exists" ? "attribute_exists" : "attribute_not_exists";
          conditions.push(`${fn}(${name(condition.attribute)})`);
        }
      }
      const expression = [
        sets.length ? `SET ${sets.join(", ")}` : "",
        adds.length ? `ADD ${adds.join(", ")}` : "",
        removes.length ? `REMOVE ${removes.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join(" ");
      try {
        const out = await send("UpdateItem", {
          TableName: tableName,
          Key: input.key,
          UpdateExpression: expression,
          ExpressionAttributeNames: names,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          ...(conditions.length ? { ConditionExpression: conditions.join(" AND ") } : {}),
          ReturnValues: "ALL_NEW",
        });
        return out.Attributes as T;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    async delete(key) {
      try {
        await send("DeleteItem", { TableName: tableName, Key: key, ConditionExpression: "attribute_exists(pk)" });
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async query<T extends object>(input: QueryInput): Promise<QueryPage<T>> {
      const pkName = input.index ? `${input.index}pk` : "pk";
      const skName = input.index ? `${input.index}sk` : "sk";
      const values: Record<string, unknown> = { ":p": input.partition };
      let keyCondition = "#pk = :p";
      const names: Record<string, string> = { "#pk": pkName };
      if (input.sortPrefix !== undefined) {
        keyCondition += " AND begins_with(#sk, :s)";
        names["#sk"] = skName;
        values[":s"] = input.sortPrefix;
      } else if (input.sortBetween) {
        keyCondition += " AND #sk BETWEEN :s1 AND :s2";
        names["#sk"] = skName;
        values[":s1"] = input.sortBetween[0];
        values[":s2"] = input.sortBetween[1];
      }
      const projected = projection(input.attributes, names);
      const out = await send("Query", {
        TableName: tableName,
        ...(input.index ? { IndexName: indexNames[input.index] } : {}),
        KeyConditionExpression: keyCondition,
        ExpressionAttributeNames: names,
        ...projected,
        ExpressionAttributeValues: values,
        ...(input.limit ? { Limit: input.limit } : {}),
        ScanIndexForward: !input.descending,
        ...(input.consistent ? { ConsistentRead: true } : {}),
        ...(input.cursor ? { ExclusiveStartKey: input.cursor } : {}),
      }).catch((error: unknown) => {
        if (input.cursor && isStartKeyRefusal(error)) throw new InvalidCursorError((error as Error).message);
        throw error;
      });
      return {
        items: (out.Items ?? []) as T[],
        ...(out.LastEvaluatedKey ? { cursor: out.LastEvaluatedKey } : {}),
      };
    },

    async batchGet<T extends object>(keys: Key[], options?: ReadOptions) {
      const results: T[] = [];
      const projected = projection(options?.attributes);
      for (let i = 0; i < keys.length; i += 100) {
        let pending: Key[] | undefined = keys.slice(i, i + 100);
        // Unprocessed keys are normal under throttling; re-ask for exactly those.
        while (pending && pending.length > 0) {
          const out = await send("BatchGetItem", { RequestItems: { [tableName]: { Keys: pending, ...projected } } });
          results.push(...((out.Responses?.[tableName] ?? []) as T[]));
          pending = out.UnprocessedKeys?.[tableName]?.Keys as Key[] | undefined;
        }
      }
      return results;
    },

    batchDelete: (keys) => batchWrite(keys.map((key) => ({ DeleteRequest: { Key: key } }))),

    batchPut: (items) => batchWrite(items.map((item) => ({ PutRequest: { Item: item } }))),
  };
}
