import type { EventDeletionCounts } from "@dorsal/shared";
import type { Key, QueryInput, Table } from "../ports/table";
import {
  contentHashesOfEventPartition,
  eventDeletionsPartition,
  keys,
  photosOfEventPartition,
  uploadPartition,
  uploadsOfEventPartition,
  zipBatchesOfEventPartition,
} from "./keys";
import { queryAll } from "./query-all";

/** Items a sweep reads at a time: enough to keep batch deletes full, few enough for one time slice. */
const pageSize = 200;

/** Finished deletions stay listed a month, then expire on their own (table TTL). */
const finishedDeletionTtlSeconds = 30 * 24 * 60 * 60;

/**
 * How much of a sweep one call may do, and where its pages are reported. Background deletion works
 * in time slices: `more` ends a call between two pages, and `deleted` records each page's counts
 * before the next is read, so a slice killed midway loses at most one page's count, never an item.
 */
export interface SweepSlice {
  more?: () => boolean;
  deleted?: (counts: Partial<EventDeletionCounts>) => Promise<void>;
}

/** The steps of a deletion, in the order they run (app/event-deletion.ts). */
export const eventDeletionSteps = ["event", "partition", "hashes", "zips", "uploads", "photos", "objects"] as const;
export type EventDeletionStep = (typeof eventDeletionSteps)[number];

export interface EventDeletionRecord extends EventDeletionCounts {
  type: "eventDeletion";
  eventId: number;
  eventName: string;
  status: "running" | "done";
  /** The step to run (or go on with) next. */
  step: EventDeletionStep;
  /** How many times a workflow was started for it: each start gets its own execution name. */
  attempt: number;
  photosAtStart: number;
  startedAt: string;
  /** When a slice last moved it: a running deletion left still for long was stopped and is started again. */
  updatedAt: string;
  finishedAt?: string;
}

const noCounts: EventDeletionCounts = {
  photos: 0,
  bibLinks: 0,
  participants: 0,
  contentHashes: 0,
  zipBatches: 0,
  uploads: 0,
  objects: 0,
};

/**
 * Everything stored for an event, found through its own partitions and indexes (docs/data-model.md,
 * "Deleting an event"): never a scan, and never more than one page in memory. Plus the deletions'
 * own items, which carry their progress.
 */
export function createEventDeletionRepository(table: Table) {
  /**
   * Reads `input` a page at a time and deletes each page's items by their `pk`/`sk` (every index
   * projects them) once `onPage` has seen them, reporting each page as `counted` says. `done` when
   * nothing is left, not when the slice ended first; `items`, how many it deleted.
   */
  async function sweep<T extends object>(
    input: Omit<QueryInput, "cursor" | "limit">,
    slice: SweepSlice,
    counted: (items: (T & Key)[]) => Partial<EventDeletionCounts>,
    onPage?: (items: (T & Key)[]) => Promise<Partial<EventDeletionCounts> | undefined>,
  ): Promise<{ done: boolean; items: number }> {
    let items = 0;
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await table.query<T & Key>({ ...input, limit: pageSize, ...(cursor ? { cursor } : {}) });
      const alongside = onPage ? await onPage(page.items) : undefined;
      await table.batchDelete(page.items.map(({ pk, sk }) => ({ pk, sk })));
      items += page.items.length;
      if (page.items.length > 0 && slice.deleted) await slice.deleted(sum(counted(page.items), alongside ?? {}));
      cursor = page.cursor;
      if (cursor && slice.more && !slice.more()) return { done: false, items };
    } while (cursor);
    return { done: true, items };
  }
  const finished = (swept: Promise<{ done: boolean }>) => swept.then(({ done }) => done);

  /** Every item of a partition, however many: a bib's links or an upload's files are few. Returns how many. */
  const sweepWhole = async (input: Omit<QueryInput, "cursor" | "limit">) => (await sweep(input, {}, () => ({}))).items;

  return {
    /**
     * Removes the event item itself. Done first: from then on every reader, upload and pipeline
     * step finds the event gone. False when it already was (another deletion got there first).
     */
    deleteEvent: (eventId: number) => table.delete(keys.event(eventId)),

    /** The event's photos, in every state, each with its raw text. */
    sweepPhotos: (eventId: number, slice: SweepSlice = {}) =>
      finished(
        sweep<{ id: string }>(
          { index: "gsi1", partition: photosOfEventPartition(eventId) },
          slice,
          (photos) => ({ photos: photos.length }),
          async (photos) => {
            await table.batchDelete(photos.map((photo) => keys.photoText(photo.id)));
            return undefined;
          },
        ),
      ),

    /**
     * The rest of the event's own partition (stats, configuration, minute counters, participants)
     * and, with each participant, its bib's photo links. Participants and links are counted apart.
     */
    sweepEventPartition: (eventId: number, slice: SweepSlice = {}) =>
      finished(
        sweep<{ dorsalNumber?: string }>(
          { partition: keys.event(eventId).pk },
          slice,
          (items) => ({ participants: items.filter((item) => isParticipant(item)).length }),
          async (items) => {
            const bibs = items.flatMap((item) => (isParticipant(item) ? [item.dorsalNumber] : []));
            // A page's bibs side by side: a big event has thousands, each its own small partition.
            const links = await Promise.all(
              bibs.map((bib) => sweepWhole({ partition: keys.bibPhotosPartition(eventId, bib) })),
            );
            return { bibLinks: links.reduce((total, count) => total + count, 0) };
          },
        ),
      ),

    /** The duplicate guards (content hashes) of the event's photos. */
    sweepContentHashes: (eventId: number, slice: SweepSlice = {}) =>
      finished(
        sweep({ index: "gsi1", partition: contentHashesOfEventPartition(eventId) }, slice, (items) => ({
          contentHashes: items.length,
        })),
      ),

    /** The event's ZIP batches, each page shown to `onPage` (to remove their ZIPs) before it is deleted. */
    sweepZipBatches: (
      eventId: number,
      slice: SweepSlice,
      onPage: (batches: { batchId: string }[]) => Promise<Partial<EventDeletionCounts>>,
    ) =>
      finished(
        sweep<{ batchId: string }>(
          { index: "gsi1", partition: zipBatchesOfEventPartition(eventId) },
          slice,
          (batches) => ({ zipBatches: batches.length }),
          onPage,
        ),
      ),

    /** The uploads to the event, each with its files (its own partition). */
    sweepUploads: (eventId: number, slice: SweepSlice) =>
      finished(
        sweep<{ uploadId: string }>(
          { index: "gsi2", partition: uploadsOfEventPartition(eventId) },
          slice,
          (uploads) => ({ uploads: uploads.length }),
          async (uploads) => {
            await Promise.all(uploads.map(({ uploadId }) => sweepWhole({ partition: uploadPartition(uploadId) })));
            return undefined;
          },
        ),
      ),

    /** One photo with its bib links: what the pipeline may have written after the event's sweep passed. */
    async deletePhoto(photoId: string): Promise<void> {
      await sweepWhole({ index: "gsi1", partition: keys.bibsOfPhotoPartition(photoId) });
      await table.delete(keys.photoText(photoId));
      await table.delete(keys.photo(photoId));
    },

    /**
     * Records a deletion about to begin; the one still running for the event when there is one (a
     * request repeated after a crash goes on with it rather than starting over).
     */
    async begin(deletion: {
      eventId: number;
      eventName: string;
      photosAtStart: number;
      startedAt: string;
    }): Promise<EventDeletionRecord> {
      const record: EventDeletionRecord = {
        type: "eventDeletion",
        ...deletion,
        ...noCounts,
        status: "running",
        step: "event",
        attempt: 1,
        updatedAt: deletion.startedAt,
      };
      const item = { ...keys.eventDeletion(deletion.eventId), ...record };
      if (await table.put(item, { ifAbsent: true })) return record;
      const existing = await table.get<EventDeletionRecord>(keys.eventDeletion(deletion.eventId));
      if (existing?.status === "running") return existing;
      // A finished one (or one expired meanwhile) tells nothing about this event: recorded anew.
      await table.put(item);
      return record;
    },

    get: (eventId: number) => table.get<EventDeletionRecord>(keys.eventDeletion(eventId)),

    /** Every deletion on record (running, or finished within the TTL): a handful, read whole. */
    list: () => queryAll<EventDeletionRecord>(table, { partition: eventDeletionsPartition }),

    /** Adds a page's counts and moves the deletion to `step`; a late slice's, once it is finished, changes nothing. */
    async progress(
      eventId: number,
      step: EventDeletionStep,
      counts: Partial<EventDeletionCounts>,
      now: string,
    ): Promise<void> {
      await table.update({
        key: keys.eventDeletion(eventId),
        set: { step, updatedAt: now },
        add: Object.fromEntries(Object.entries(counts).filter(([, count]) => count !== 0)),
        conditions: [{ attribute: "status", op: "=", value: "running" }],
      });
    },

    async finish(eventId: number, now: Date): Promise<void> {
      await table.update({
        key: keys.eventDeletion(eventId),
        set: {
          status: "done",
          finishedAt: now.toISOString(),
          updatedAt: now.toISOString(),
          ttl: Math.floor(now.getTime() / 1000) + finishedDeletionTtlSeconds,
        },
        conditions: [{ attribute: "status", op: "=", value: "running" }],
      });
    },

    /**
     * Claims a new attempt of a stalled deletion: only one caller wins it (the attempt it saw must
     * still be the current one), so two schedulers never start it twice.
     */
    async retry(deletion: EventDeletionRecord, now: string): Promise<EventDeletionRecord | undefined> {
      return table.update<EventDeletionRecord>({
        key: keys.eventDeletion(deletion.eventId),
        set: { attempt: deletion.attempt + 1, updatedAt: now },
        conditions: [
          { attribute: "status", op: "=", value: "running" },
          { attribute: "attempt", op: "=", value: deletion.attempt },
        ],
      });
    },
  };
}
export type EventDeletionRepository = ReturnType<typeof createEventDeletionRepository>;

function isParticipant(item: Key & { dorsalNumber?: string }): item is Key & { dorsalNumber: string } {
  return item.sk.startsWith("BIB#") && item.dorsalNumber !== undefined;
}

function sum(...parts: Partial<EventDeletionCounts>[]): Partial<EventDeletionCounts> {
  const total: Partial<EventDeletionCounts> = {};
  for (const part of parts) {
    for (const [name, count] of Object.entries(part) as [keyof EventDeletionCounts, number][]) {
      total[name] = (total[name] ?? 0) + count;
    }
  }
  return total;
}
