import { createRequire } from "node:module";
import type { PartitionWrites, TablePartition } from "../src/adapters/local/read-cached-table";
import { servingIndexNames } from "../src/data/table-schema";

/**
 * Every write dynalite's store makes, from its HTTP endpoint and from the runtime in process alike,
 * seen where they all meet: the LevelDB underneath. Each item and each index entry is stored under
 * `<sub-db>~<hash of the partition key>/<partition key, hex>/<sort key>/…`, so the part up to the
 * second `/` names the partition a write touched — of the table (`item-<table>`) or of a global
 * index (`index-global~<table>~<index>`).
 */
interface MainDb {
  put(...args: unknown[]): unknown;
  del(...args: unknown[]): unknown;
  batch(...args: unknown[]): unknown;
}
interface Keys {
  hashPrefix(value: string, type: "S"): string;
  toRangeStr(value: string, type: "S"): string;
}

const require = createRequire(import.meta.url);
const dynaliteKeys = require("dynalite/db") as Keys;

/** Past this many remembered partitions the history is forgotten at once (and every cached read with it). */
const rememberedPartitions = 100_000;

export interface DynaliteWrites {
  /** The clock of one table's partitions, for readCachedTable. */
  of(tableName: string): PartitionWrites;
}

export function watchDynaliteWrites(store: object): DynaliteWrites {
  const db = (store as { db: MainDb }).db;
  const lastWrites = new Map<string, number>();
  const forgetListeners: ((before: number) => void)[] = [];
  let sequence = 0;
  let forgottenBefore = 0;

  const forget = () => {
    lastWrites.clear();
    forgottenBefore = ++sequence;
    for (const listener of forgetListeners) listener(forgottenBefore);
  };

  const wrote = (key: string) => {
    const first = key.indexOf("/");
    const second = first < 0 ? -1 : key.indexOf("/", first + 1);
    // A table's description or tags: what every read of the table depends on.
    if (second < 0) return forget();
    if (lastWrites.size >= rememberedPartitions) forget();
    lastWrites.set(key.slice(0, second + 1), ++sequence);
  };

  /** Reports the keys when the write is asked for and again when it has happened (or failed). */
  const reporting =
    (write: (...args: unknown[]) => unknown, keysOf: (...args: unknown[]) => string[]) =>
    (...args: unknown[]) => {
      const keys = keysOf(...args);
      for (const key of keys) wrote(key);
      const done = () => {
        for (const key of keys) wrote(key);
      };
      const callbackAt = args.findIndex((arg) => typeof arg === "function");
      if (callbackAt >= 0) {
        const callback = args[callbackAt] as (...results: unknown[]) => void;
        args[callbackAt] = (...results: unknown[]) => {
          done();
          callback(...results);
        };
        return write(...args);
      }
      const result = write(...args);
      if (result instanceof Promise) return result.finally(done);
      done();
      return result;
    };

  db.put = reporting(db.put.bind(db), (key) => [String(key)]);
  db.del = reporting(db.del.bind(db), (key) => [String(key)]);
  const batch = db.batch.bind(db);
  const reportedBatch = reporting(batch, (operations) =>
    (operations as { key: string }[]).map((operation) => operation.key),
  );
  db.batch = (...args: unknown[]) => {
    // The chained form (`db.batch().put(…)`) is not used by dynalite; if it ever is, nothing can be trusted.
    if (!Array.isArray(args[0])) {
      forget();
      return batch(...args);
    }
    return reportedBatch(...args);
  };

  const partitionId = (tableName: string, partition: TablePartition) => {
    // A query names the index by its keys (gsi1); LevelDB keeps the entries under the index's name (gsi1v2).
    const subDb = partition.index
      ? `index-global~${tableName}~${servingIndexNames[partition.index]}`
      : `item-${tableName}`;
    const { hashPrefix, toRangeStr } = dynaliteKeys;
    return `${subDb}~${hashPrefix(partition.key, "S")}/${toRangeStr(partition.key, "S")}/`;
  };

  return {
    of: (tableName) => ({
      now: () => sequence,
      idOf: (partition) => partitionId(tableName, partition),
      lastWrite: (id) => lastWrites.get(id) ?? forgottenBefore,
      onForget: (listener) => forgetListeners.push(listener),
    }),
  };
}
