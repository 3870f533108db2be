import type { StartListRow } from "@dorsal/shared";
import type { Item, Key, Table } from "../ports/table";
import { keys, startListBibsPrefix, startListEntriesPrefix } from "./keys";
import type { PageCursor } from "./photos";

/** Which import is the event's start list now (keys.startList). */
export interface StartListRecord {
  eventId: number;
  importId: string;
  count: number;
  importedAt: string;
  importedBy: string;
}

/** One participant of the list (spec §3 participants; the photo count lives on the `BIB#` item). */
export interface StartListEntry {
  eventId: number;
  importId: string;
  dorsalNumber: string;
  name: string;
  email: string | null;
  category: string | null;
}

/** Rows written per batch call: a few dozen BatchWriteItem requests in flight, not thousands. */
const writeSlice = 500;
/** Bib sets kept in memory, by import: an import never changes, so a cached set is never stale. */
const cachedImports = 16;

export function createStartListRepository(table: Table) {
  const bibsByImport = new Map<string, ReadonlySet<string>>();

  const current = (eventId: number) => table.get<StartListRecord>(keys.startList(eventId));

  async function inSlices<T>(items: T[], write: (slice: T[]) => Promise<void>) {
    for (let i = 0; i < items.length; i += writeSlice) await write(items.slice(i, i + writeSlice));
  }

  /** Deletes the items of the event's partition whose sort key begins with `prefix`. */
  async function sweep(eventId: number, prefix: string): Promise<void> {
    let cursor: Item | undefined;
    do {
      const page = await table.query<Key>({
        partition: keys.event(eventId).pk,
        sortPrefix: prefix,
        limit: writeSlice,
        ...(cursor ? { cursor } : {}),
      });
      await table.batchDelete(page.items.map(({ pk, sk }) => ({ pk, sk })));
      cursor = page.cursor;
    } while (cursor);
  }

  /** Deletes one import's items; without an id, every import's. */
  async function sweepImport(eventId: number, importId?: string): Promise<void> {
    await sweep(eventId, startListEntriesPrefix(importId));
    if (importId) await table.delete(keys.startListBibs(eventId, importId));
    else await sweep(eventId, startListBibsPrefix);
  }

  return {
    current,

    /** The bibs of the event's start list, or undefined when it has none. */
    async bibs(eventId: number): Promise<ReadonlySet<string> | undefined> {
      const list = await current(eventId);
      if (!list) return undefined;
      const cached = bibsByImport.get(list.importId);
      if (cached) return cached;
      const stored = await table.get<{ bibs: string }>(keys.startListBibs(eventId, list.importId));
      const bibs: ReadonlySet<string> = new Set(stored?.bibs ? stored.bibs.split(" ") : []);
      if (bibsByImport.size >= cachedImports) bibsByImport.delete(bibsByImport.keys().next().value as string);
      bibsByImport.set(list.importId, bibs);
      return bibs;
    },

    /**
     * Makes `rows` the event's start list: written under a new import id, then switched to in one
     * conditional write, then the list it replaced is deleted. Readers never see a mix of two lists.
     * Undefined (and nothing kept) when other imports kept switching the list meanwhile.
     */
    async replace(
      eventId: number,
      importId: string,
      rows: readonly StartListRow[],
      importedBy: string,
      now: Date,
    ): Promise<StartListRecord | undefined> {
      await table.put({
        ...keys.startListBibs(eventId, importId),
        type: "startListBibs",
        eventId,
        importId,
        bibs: rows.map((row) => row.bib).join(" "),
      });
      await inSlices([...rows], (slice) =>
        table.batchPut(
          slice.map((row) => ({
            ...keys.startListEntry(eventId, importId, row.bib),
            type: "startListEntry",
            eventId,
            importId,
            dorsalNumber: row.bib,
            name: row.name,
            email: row.email,
            category: row.category,
          })),
        ),
      );
      const record: StartListRecord = {
        eventId,
        importId,
        count: rows.length,
        importedAt: now.toISOString(),
        importedBy,
      };
      // Another import may switch the list between our read and our write: read again and win.
      for (let attempt = 0; attempt < 5; attempt++) {
        const previous = await current(eventId);
        const switched = await table.update({
          key: keys.startList(eventId),
          set: { type: "startList", ...record },
          conditions: [
            previous
              ? { attribute: "importId", op: "=", value: previous.importId }
              : { attribute: "pk", op: "not_exists" },
          ],
        });
        if (!switched) continue;
        if (previous) await sweepImport(eventId, previous.importId);
        return record;
      }
      await sweepImport(eventId, importId);
      return undefined;
    },

    /** Removes the event's start list; returns how many participants it had (0: there was none). */
    async remove(eventId: number): Promise<number> {
      const list = await current(eventId);
      if (!list) return 0;
      await table.delete(keys.startList(eventId));
      await sweepImport(eventId);
      return list.count;
    },

    /** A page of the current list's participants, in bib order. */
    async page(
      list: StartListRecord,
      options: { limit: number; cursor?: PageCursor | undefined },
    ): Promise<{ entries: StartListEntry[]; cursor?: PageCursor }> {
      const page = await table.query<StartListEntry>({
        partition: keys.event(list.eventId).pk,
        sortPrefix: startListEntriesPrefix(list.importId),
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return { entries: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    /** The current list's participants among `bibs` (bibs not on it are absent from the map). */
    async entries(eventId: number, bibs: readonly string[]): Promise<Map<string, StartListEntry>> {
      if (bibs.length === 0) return new Map();
      const list = await current(eventId);
      if (!list) return new Map();
      const found = await table.batchGet<StartListEntry>(
        [...new Set(bibs)].map((bib) => keys.startListEntry(eventId, list.importId, bib)),
      );
      return new Map(found.map((entry) => [entry.dorsalNumber, entry]));
    },
  };
}
export type StartListRepository = ReturnType<typeof createStartListRepository>;
