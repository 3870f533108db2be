import { describe, expect, it } from "vitest";
import type { Key, ReadOptions, Table } from "../../ports/table";
import { createMemoryTable } from "../memory/table";
import { type PartitionWrites, readCachedTable } from "./read-cached-table";

/** A write clock driven by the test: the store's side is covered in tests/integration/cached-reads.test.ts. */
function testClock() {
  const lastWrites = new Map<string, number>();
  const listeners: ((before: number) => void)[] = [];
  let sequence = 0;
  const clock: PartitionWrites = {
    now: () => sequence,
    idOf: (partition) => `${partition.index ?? "table"}:${partition.key}`,
    lastWrite: (id) => lastWrites.get(id) ?? 0,
    onForget: (listener) => listeners.push(listener),
  };
  return {
    clock,
    wrote: (id: string) => lastWrites.set(id, ++sequence),
    forget: () => {
      sequence += 1;
      for (const listener of listeners) listener(sequence);
    },
  };
}

/** The memory table, counting the reads that reach it. */
function countedTable() {
  const inner = createMemoryTable();
  const reads = { count: 0 };
  const table: Table = {
    ...inner,
    get: (key, options) => {
      reads.count += 1;
      return inner.get(key, options);
    },
  };
  return { inner, table, reads };
}

describe("readCachedTable", () => {
  const key = { pk: "EVENT#1", sk: "META" };

  it("answers a repeated read from memory until its partition is written", async () => {
    const { inner, table, reads } = countedTable();
    const { clock, wrote } = testClock();
    const cached = readCachedTable(table, clock);
    await inner.put({ ...key, name: "10K" });
    expect(await cached.get(key)).toMatchObject({ name: "10K" });
    expect(await cached.get(key)).toMatchObject({ name: "10K" });
    expect(reads.count).toBe(1);

    wrote("table:EVENT#2");
    await cached.get(key);
    expect(reads.count).toBe(1);

    await inner.put({ ...key, name: "21K" });
    wrote("table:EVENT#1");
    expect(await cached.get(key)).toMatchObject({ name: "21K" });
    expect(reads.count).toBe(2);
  });

  it("keeps no answer whose read overlapped a write to what it read", async () => {
    const { inner, reads } = countedTable();
    const { clock, wrote } = testClock();
    await inner.put({ ...key, name: "10K" });
    // The write is reported while the read is under way: its answer may be from before or after.
    const slow: Table = {
      ...inner,
      get: async <T extends object>(readKey: Key, options?: ReadOptions) => {
        reads.count += 1;
        const item = await inner.get<T>(readKey, options);
        wrote("table:EVENT#1");
        return item;
      },
    };
    const cached = readCachedTable(slow, clock);
    await cached.get(key);
    await cached.get(key);
    expect(reads.count).toBe(2);
  });

  it("lets the least recently used answers go first when over its budget, and all of them when the store forgets", async () => {
    const { inner, table, reads } = countedTable();
    const { clock, forget } = testClock();
    // Each answer is 57 bytes of JSON: three fit, a fourth pushes out the least recently used.
    const cached = readCachedTable(table, clock, { budgetBytes: 180, largestBytes: 180 });
    const keys = ["A", "B", "C", "D"].map((name) => ({ pk: `EVENT#${name}`, sk: "META" }));
    for (const each of keys) await inner.put({ ...each, name: "x".repeat(20) });
    const [a, b, c, d] = keys as [typeof key, typeof key, typeof key, typeof key];
    await cached.get(a);
    await cached.get(b);
    await cached.get(c);
    await cached.get(a);
    expect(reads.count).toBe(3);
    await cached.get(d);
    await cached.get(a);
    expect(reads.count).toBe(4);
    await cached.get(b);
    expect(reads.count).toBe(5);

    forget();
    await cached.get(a);
    expect(reads.count).toBe(6);
  });
});
