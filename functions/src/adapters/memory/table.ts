import { isDeepStrictEqual } from "node:util";
import { isProjected } from "../../data/table-schema";
import {
  type Condition,
  InvalidCursorError,
  type Item,
  type Key,
  type QueryInput,
  type QueryPage,
  type ReadOptions,
  type Table,
  type UpdateInput,
} from "../../ports/table";

/**
 * The Table port held in memory, with DynamoDB's semantics as the repositories rely on them
 * (conditional single-item writes, ADD counters, sparse gsi1/gsi2 indexes holding only what the
 * schema projects, cursors): for measuring
 * the pipeline's own cost with no table server in between, and for use-case tests. Items are copied
 * in and out, as serialisation would, so no caller can change a stored item by holding on to it.
 */
export function createMemoryTable(): Table {
  const items = new Map<string, Item & Key>();
  const id = (key: Key) => `${key.pk}\u0000${key.sk}`;
  const copy = <T>(value: T): T => structuredClone(value);
  // DynamoDB refuses undefined; the SDK adapter drops such attributes (removeUndefinedValues).
  const defined = (item: Item): Item =>
    Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));

  const holds = (item: Item | undefined, condition: Condition): boolean => {
    const actual = item?.[condition.attribute];
    if (!("value" in condition)) return (actual !== undefined) === (condition.op === "exists");
    // As in DynamoDB: a missing attribute is unequal to anything and compares as nothing else.
    if (actual === undefined) return condition.op === "<>";
    if (condition.op === "=") return isDeepStrictEqual(actual, condition.value);
    if (condition.op === "<>") return !isDeepStrictEqual(actual, condition.value);
    return (actual as number | string) < (condition.value as number | string);
  };

  // As DynamoDB projects: only the named attributes the item has.
  const read = <T>(item: Item, attributes: readonly string[] | undefined): T =>
    copy(
      attributes
        ? Object.fromEntries(attributes.filter((name) => name in item).map((name) => [name, item[name]]))
        : item,
    ) as T;

  const compare = (a: unknown, b: unknown) => (a === b ? 0 : (a as string | number) < (b as string | number) ? -1 : 1);

  return {
    async get<T extends object>(key: Key, options?: ReadOptions) {
      const item = items.get(id(key));
      return item ? read<T>(item, options?.attributes) : undefined;
    },

    async put(item, options) {
      if (options?.ifAbsent && items.has(id(item))) return false;
      items.set(id(item), copy(defined(item)) as Item & Key);
      return true;
    },

    async update<T extends object>(input: UpdateInput) {
      const existing = items.get(id(input.key));
      if (!(input.conditions ?? []).every((condition) => holds(existing, condition))) return undefined;
      const next: Item & Key = existing ? copy(existing) : { ...input.key };
      Object.assign(next, copy(defined(input.set ?? {})));
      for (const [attribute, amount] of Object.entries(input.add ?? {})) {
        next[attribute] = ((next[attribute] as number | undefined) ?? 0) + amount;
      }
      for (const attribute of input.remove ?? []) delete next[attribute];
      items.set(id(input.key), next);
      return copy(next) as unknown as T;
    },

    async delete(key) {
      return items.delete(id(key));
    },

    async query<T extends object>(input: QueryInput): Promise<QueryPage<T>> {
      const pkName = input.index ? `${input.index}pk` : "pk";
      const skName = input.index ? `${input.index}sk` : "sk";
      const inRange = (sk: unknown) => {
        if (input.sortPrefix !== undefined) return typeof sk === "string" && sk.startsWith(input.sortPrefix);
        if (input.sortBetween) return compare(sk, input.sortBetween[0]) >= 0 && compare(sk, input.sortBetween[1]) <= 0;
        return true;
      };
      // Index entries with equal sort keys come in table-key order, as DynamoDB returns them.
      const order = (a: Item & Key, b: Item & Key) =>
        compare(a[skName], b[skName]) || compare(a.pk, b.pk) || compare(a.sk, b.sk);
      const matching = [...items.values()]
        .filter((item) => item[pkName] === input.partition && item[skName] !== undefined && inRange(item[skName]))
        .sort(order);
      if (input.descending) matching.reverse();
      let start = 0;
      if (input.cursor) {
        const cursor = input.cursor as Item & Key;
        if (cursor[pkName] !== input.partition || cursor[skName] === undefined) {
          throw new InvalidCursorError("The provided starting key is invalid");
        }
        const after = (item: Item & Key) => (input.descending ? order(cursor, item) > 0 : order(item, cursor) > 0);
        start = matching.findIndex(after);
        if (start < 0) start = matching.length;
      }
      const page = matching.slice(start, input.limit ? start + input.limit : undefined);
      const last = page.at(-1);
      const more = last !== undefined && start + page.length < matching.length;
      const cursorOf = (item: Item & Key): Item =>
        input.index
          ? { pk: item.pk, sk: item.sk, [pkName]: item[pkName], [skName]: item[skName] }
          : { pk: item.pk, sk: item.sk };
      const { index } = input;
      if (index) {
        // DynamoDB cannot fetch from the table what a global index does not project: a repository
        // asking for it has a bug that only shows on data the index was built from.
        const missing = (input.attributes ?? []).filter((name) => !isProjected(index, name));
        if (missing.length > 0) throw new Error(`${index} does not project ${missing.join(", ")}`);
      }
      const entry = (item: Item): Item =>
        index ? Object.fromEntries(Object.entries(item).filter(([name]) => isProjected(index, name))) : item;
      return {
        items: page.map((item) => read<T>(entry(item), input.attributes)),
        ...(more ? { cursor: cursorOf(last) } : {}),
      };
    },

    async batchGet<T extends object>(keys: Key[], options?: ReadOptions) {
      return keys.flatMap((key) => {
        const item = items.get(id(key));
        return item ? [read<T>(item, options?.attributes)] : [];
      });
    },

    async batchDelete(keys) {
      for (const key of keys) items.delete(id(key));
    },

    async batchPut(batch) {
      for (const item of batch) items.set(id(item), copy(defined(item)) as Item & Key);
    },
  };
}
