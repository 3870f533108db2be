import type { Key, QueryInput, ReadOptions, Table } from "../../ports/table";

/** A partition of the table, or of one of its indexes: what one query reads, what one write touches. */
export interface TablePartition {
  index?: QueryInput["index"];
  key: string;
}

/**
 * When the store last saw a write to each partition, on a sequence that grows with every write.
 * The store reports a write both when it begins and when it ends, from every path that writes
 * (the runtime itself, and anything else on the store's own endpoint), so a read that overlapped a
 * write is always older than that write's last report.
 */
export interface PartitionWrites {
  now(): number;
  /** The store's own name for a partition, worked out once per read. */
  idOf(partition: TablePartition): string;
  lastWrite(partitionId: string): number;
  /** Called with the sequence below which every partition's history was forgotten. */
  onForget(listener: (before: number) => void): void;
}

interface Entry {
  /** JSON: every hit parses its own copy, so no caller can change what the next one reads. */
  json: string;
  readAt: number;
  partitionIds: string[];
}

/**
 * The embedded runtime's reads, answered from memory while nothing has written to what they read.
 *
 * Why: dynalite emulates DynamoDB in JavaScript, so a read costs this machine's CPU (validation,
 * LevelDB, conversion): ~0.2 ms for a get, ~0.8 ms for a small query, ~0.4 ms per photo in a batch.
 * An athlete's search is four of them, so on race day the CPU, not the answer, sets how many
 * athletes are served. DynamoDB on AWS costs the Lambda none of that, so only the local
 * composition uses this.
 *
 * Coherent by construction: an entry remembers when its read began and the partitions it read,
 * and is used only while none of them has been written since. Writes are not cached at all.
 * Bounded by the size of what it holds, least recently used first out.
 */
export function readCachedTable(
  table: Table,
  writes: PartitionWrites,
  // One answer may not crowd out the rest (a whole photo with its recognition runs to tens of KB).
  { budgetBytes = 32 * 1024 * 1024, largestBytes = 512 * 1024 } = {},
): Table {
  const entries = new Map<string, Entry>();
  let heldBytes = 0;
  let forgottenBefore = 0;

  writes.onForget((before) => {
    forgottenBefore = before;
    entries.clear();
    heldBytes = 0;
  });

  const drop = (cacheKey: string, entry: Entry) => {
    entries.delete(cacheKey);
    heldBytes -= entry.json.length;
  };

  const lookup = (cacheKey: string): { value: unknown } | undefined => {
    const entry = entries.get(cacheKey);
    if (!entry) return undefined;
    if (entry.partitionIds.some((partitionId) => writes.lastWrite(partitionId) > entry.readAt)) {
      drop(cacheKey, entry);
      return undefined;
    }
    // Most recently used last: eviction takes from the front.
    entries.delete(cacheKey);
    entries.set(cacheKey, entry);
    return { value: JSON.parse(entry.json) };
  };

  const remember = (cacheKey: string, value: unknown, readAt: number, partitions: TablePartition[]) => {
    // A read that began before the store forgot its history cannot prove it is current.
    if (readAt < forgottenBefore) return;
    const json = JSON.stringify(value);
    if (json.length > largestBytes) return;
    const previous = entries.get(cacheKey);
    if (previous) drop(cacheKey, previous);
    entries.set(cacheKey, { json, readAt, partitionIds: partitions.map(writes.idOf) });
    heldBytes += json.length;
    for (const [oldestKey, oldest] of entries) {
      if (heldBytes <= budgetBytes) break;
      drop(oldestKey, oldest);
    }
  };

  async function through<T>(cacheKey: string, partitions: TablePartition[], read: () => Promise<T>): Promise<T> {
    const hit = lookup(cacheKey);
    if (hit) return hit.value as T;
    const readAt = writes.now();
    const value = await read();
    remember(cacheKey, value ?? null, readAt, partitions);
    return value;
  }

  const attributesOf = (options?: ReadOptions) => options?.attributes?.join(",") ?? "*";

  return {
    ...table,
    async get<T extends object>(key: Key, options?: ReadOptions) {
      const item = await through<T | null>(
        `get\n${attributesOf(options)}\n${key.pk}\n${key.sk}`,
        [{ key: key.pk }],
        // null, not undefined, is what JSON keeps of an absent item.
        async () => (await table.get<T>(key, options)) ?? null,
      );
      return item ?? undefined;
    },

    batchGet: <T extends object>(keys: Key[], options?: ReadOptions) =>
      through(
        `batch\n${attributesOf(options)}\n${keys.map((key) => `${key.pk}\n${key.sk}`).join("\n")}`,
        keys.map((key) => ({ key: key.pk })),
        () => table.batchGet<T>(keys, options),
      ),

    query: <T extends object>(input: QueryInput) =>
      through(
        `query\n${JSON.stringify(input)}`,
        [{ ...(input.index ? { index: input.index } : {}), key: input.partition }],
        () => table.query<T>(input),
      ),
  };
}
