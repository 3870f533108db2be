import { createRequire } from "node:module";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import type { DocumentOutput, DocumentSender, DynamoOperation } from "../src/adapters/aws/dynamodb-table";
import type { Item } from "../src/ports/table";

/**
 * dynalite's own request path without the HTTP around it: the same type checks, validations and
 * actions its server runs for a request, called in this process on the store the server also
 * serves. The runtime's table calls skip the SDK's middleware, request signing, and two HTTP
 * stacks; the protocol itself (DynamoDB's JSON, its validation and its errors) is still dynalite's.
 */
type Callback = (error: DynaliteError | null, data?: Record<string, unknown>) => void;
interface DynaliteError extends Error {
  statusCode?: number;
  body?: { __type?: string; message?: string; Message?: string };
}
type DynaliteStore = object;
type Action = (store: DynaliteStore, data: Record<string, unknown>, callback: Callback) => void;
interface Validations {
  checkTypes(data: unknown, types: unknown): Record<string, unknown>;
  checkValidations(data: Record<string, unknown>, types: unknown, custom: unknown, store: DynaliteStore): void;
}

const require = createRequire(import.meta.url);
const dynaliteDb = require("dynalite/db") as { create(options: object): DynaliteStore };
const validations = require("dynalite/validations") as Validations;

interface Operation {
  action: Action;
  validation: { types: unknown; custom?: unknown };
}
/** Resolved once per operation: a require() on every call costs a module lookup each time. */
const operations = new Map<DynamoOperation, Operation>();
const operationOf = (operation: DynamoOperation): Operation => {
  let known = operations.get(operation);
  if (!known) {
    const name = operation.charAt(0).toLowerCase() + operation.slice(1);
    known = {
      action: require(`dynalite/actions/${name}`) as Action,
      validation: require(`dynalite/validations/${name}`) as Operation["validation"],
    };
    operations.set(operation, known);
  }
  return known;
};

interface TableDescription {
  TableStatus?: string;
}
interface StoreInternals {
  tableDb: {
    get(name: string, callback: (error: Error | null, table?: TableDescription) => void): void;
    put(name: string, value: unknown, callback: (error?: Error | null) => void): void;
    del(name: string, callback: (error?: Error | null) => void): void;
  };
  getTable(name: string, checkStatus: unknown, callback?: unknown): void;
}

/**
 * A copy of a value made of JSON's kinds only, as the table's description is (LevelDB keeps it as
 * JSON): dynalite asks for the description several times an operation, and structuredClone, which
 * serialises any value, took ~40 µs a copy of it against ~6 for this walk (a bib's first look made
 * about ten).
 */
export function copyOfJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOfJson) as T;
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = copyOfJson(field);
  return copy as T;
}

/**
 * dynalite reads the table's description from LevelDB before every operation — a third of its
 * reads. An ACTIVE table's description is kept in memory instead, until anything writes a table
 * description (create, update, delete), so every status change is still seen.
 */
function rememberActiveTables(store: DynaliteStore): void {
  const internals = store as StoreInternals;
  const tableDb = internals.tableDb;
  const active = new Map<string, TableDescription>();
  const readTable = tableDb.get.bind(tableDb);
  const writeTable = tableDb.put.bind(tableDb);
  const deleteTable = tableDb.del.bind(tableDb);
  tableDb.get = (name, callback) => {
    const known = active.get(name);
    if (known) {
      // Asynchronous like LevelDB, and a copy: dynalite's actions may change what they are given.
      queueMicrotask(() => callback(null, copyOfJson(known)));
      return;
    }
    readTable(name, (error, table) => {
      if (!error && table?.TableStatus === "ACTIVE") active.set(name, copyOfJson(table));
      callback(error, table);
    });
  };
  tableDb.put = (name, value, callback) => {
    active.delete(name);
    writeTable(name, value, (error) => {
      active.delete(name);
      callback(error);
    });
  };
  tableDb.del = (name, callback) => {
    active.delete(name);
    deleteTable(name, (error) => {
      active.delete(name);
      callback(error);
    });
  };
}

/** Calls `create` (dynalite's server factory) and returns the store it opened with it. */
export function withCapturedStore<T>(create: () => T): { created: T; store: DynaliteStore } {
  const original = dynaliteDb.create;
  let store: DynaliteStore | undefined;
  dynaliteDb.create = (options) => {
    store = original(options);
    return store;
  };
  try {
    const created = create();
    if (!store) throw new Error("dynalite opened no store");
    rememberActiveTables(store);
    return { created, store };
  } finally {
    dynaliteDb.create = original;
  }
}

/** As DynamoDB names its errors: `com.amazonaws.dynamodb.v20120810#ValidationException` → ValidationException. */
function asDynamoError(error: DynaliteError): Error {
  if (!error.statusCode || !error.body) return error;
  const name = (error.body.__type ?? "InternalServerError").split("#").pop() ?? "InternalServerError";
  return Object.assign(new Error(error.body.message ?? error.body.Message ?? name), { name });
}

const toWire = (value: Item) => marshall(value, { removeUndefinedValues: true });
const fromWire = (value: unknown) => unmarshall(value as Parameters<typeof unmarshall>[0]) as Item;

/** The document client's conversions, for the fields the Table port's operations use. */
function requestToWire(input: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = { ...input };
  for (const field of ["Key", "Item", "ExclusiveStartKey", "ExpressionAttributeValues"]) {
    if (input[field]) wire[field] = toWire(input[field] as Item);
  }
  const requestItems = input.RequestItems as Record<string, unknown> | undefined;
  if (requestItems) {
    wire.RequestItems = Object.fromEntries(
      Object.entries(requestItems).map(([table, request]) => {
        if (Array.isArray(request)) {
          const writes = request.map((write: { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }) =>
            write.PutRequest
              ? { PutRequest: { Item: toWire(write.PutRequest.Item) } }
              : { DeleteRequest: { Key: toWire(write.DeleteRequest?.Key ?? {}) } },
          );
          return [table, writes];
        }
        const reads = request as { Keys: Item[] };
        return [table, { ...reads, Keys: reads.Keys.map(toWire) }];
      }),
    );
  }
  // What the HTTP server would have parsed from the request's body.
  return JSON.parse(JSON.stringify(wire)) as Record<string, unknown>;
}

function responseFromWire(data: Record<string, unknown>): DocumentOutput {
  const out: DocumentOutput = {};
  if (data.Item) out.Item = fromWire(data.Item);
  if (data.Attributes) out.Attributes = fromWire(data.Attributes);
  if (data.LastEvaluatedKey) out.LastEvaluatedKey = fromWire(data.LastEvaluatedKey);
  if (Array.isArray(data.Items)) out.Items = data.Items.map(fromWire);
  if (data.Responses) {
    out.Responses = Object.fromEntries(
      Object.entries(data.Responses as Record<string, unknown[]>).map(([table, items]) => [table, items.map(fromWire)]),
    );
  }
  const unprocessedKeys = data.UnprocessedKeys as Record<string, { Keys: unknown[] }> | undefined;
  if (unprocessedKeys && Object.keys(unprocessedKeys).length > 0) {
    out.UnprocessedKeys = Object.fromEntries(
      Object.entries(unprocessedKeys).map(([table, request]) => [table, { Keys: request.Keys.map(fromWire) }]),
    );
  }
  const unprocessedItems = data.UnprocessedItems as
    | Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]>
    | undefined;
  if (unprocessedItems && Object.keys(unprocessedItems).length > 0) {
    out.UnprocessedItems = Object.fromEntries(
      Object.entries(unprocessedItems).map(([table, writes]) => [
        table,
        writes.map((write) =>
          write.PutRequest
            ? { PutRequest: { Item: fromWire(write.PutRequest.Item) } }
            : { DeleteRequest: { Key: fromWire(write.DeleteRequest?.Key) } },
        ),
      ]),
    );
  }
  return out;
}

/** A sender for createDynamoTable that talks to dynalite's store in this process. */
export function inProcessDynaliteSender(store: DynaliteStore): DocumentSender {
  return (operation, input) =>
    new Promise<DocumentOutput>((resolve, reject) => {
      const { action, validation } = operationOf(operation);
      let data: Record<string, unknown>;
      try {
        data = validations.checkTypes(requestToWire(input), validation.types);
        validations.checkValidations(data, validation.types, validation.custom, store);
      } catch (error) {
        reject(asDynamoError(error as DynaliteError));
        return;
      }
      action(store, data, (error, result) => {
        if (error) reject(asDynamoError(error));
        else resolve(responseFromWire(result ?? {}));
      });
    });
}
