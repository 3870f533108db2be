import type { Item, Table } from "../ports/table";
import { eventsIndexPartition, keys } from "./keys";
import { queryAllThenGet } from "./query-all";

export interface EventRecord {
  id: number;
  name: string;
  date: string;
  location: string;
  expectedParticipants: number;
  status: string;
  freePhotosEnabled: boolean;
  freePhotosEnabledAt: string | null;
  requiresAthleteLogin: boolean;
  /** 'Búsqueda por selfie' (issue 23); absent on events made before it existed, and off. */
  faceSearch?: boolean;
  /** Left out of the public lists: the preflight's probe event. Absent on events made before it existed. */
  unlisted?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Per-event processing counters, all maintained with atomic ADD. */
export interface EventStats {
  eventId: number;
  totalPhotos: number;
  processedPhotos: number;
  failedPhotos: number;
  /** Photos refused as copies of one the event already has (counted in totalPhotos too). */
  duplicatePhotos: number;
  dorsalsDetected: number;
  /** Bibs with at least one photo (the bib links' participant counts above zero), kept with the links. */
  bibsWithPhotos: number;
  /** Processed photos with no bib (the "Sin dorsal" list), kept with the photos' bib writes. */
  unbibbedPhotos: number;
  facesDetected: number;
  processingMsTotal: number;
  lastUpdated: string | null;
  /** When the event's latest photo became searchable. */
  lastProcessedAt: string | null;
  /** When the counters were last recounted from the photos, and `changes` as that recount read it. */
  recountedAt: string | null;
  changesAtRecount: number;
  /**
   * The counters' generation as the last recount wrote them: below `countsGeneration`, some of the
   * counters are ones that recount never made (written before they were kept), so it is due.
   */
  countsGeneration: number;
  /**
   * How many writes have moved the counters (every `addStats` and bib-link change adds one): a
   * recount replaces them only if none moved them while it read the photos.
   */
  changes: number;
}

/** The counters of an event's stats (the rest are timestamps and the change count). */
export type EventCounts = Omit<
  EventStats,
  "eventId" | "lastUpdated" | "lastProcessedAt" | "recountedAt" | "changesAtRecount" | "changes" | "countsGeneration"
>;

/** Bumped when a counter is added to the stats: events recounted before it are recounted once more. */
export const countsGeneration = 2;

/**
 * Where a counter recount has got to (one item per event, beside its stats): a recount stopped
 * anywhere continues from the last page it finished with what it had counted so far. `step` grows
 * with every page, so two runs resuming the same recount cannot both go on.
 */
export interface RecountCheckpoint {
  links: boolean;
  /** Counting photos, then each bib's links (with `links`), then writing the result. */
  phase: "photos" | "bibs" | "replace";
  /** The next page of the phase; null at its start. */
  cursor: Item | null;
  readAtChanges: number;
  counts: Omit<EventCounts, "bibsWithPhotos" | "dorsalsDetected"> & { bibsWithPhotos: number; dorsalsDetected: number };
  step: number;
}

/** A recount's counts before it has read anything. */
export const emptyRecountCounts = (): RecountCheckpoint["counts"] => ({
  totalPhotos: 0,
  processedPhotos: 0,
  failedPhotos: 0,
  duplicatePhotos: 0,
  unbibbedPhotos: 0,
  facesDetected: 0,
  processingMsTotal: 0,
  dorsalsDetected: 0,
  bibsWithPhotos: 0,
});

/** What a checkpoint says of how far its recount is. */
export type RecountPosition = Pick<RecountCheckpoint, "links" | "phase" | "counts">;

const emptyStats = (eventId: number): EventStats => ({
  eventId,
  totalPhotos: 0,
  processedPhotos: 0,
  failedPhotos: 0,
  duplicatePhotos: 0,
  dorsalsDetected: 0,
  bibsWithPhotos: 0,
  unbibbedPhotos: 0,
  facesDetected: 0,
  processingMsTotal: 0,
  lastUpdated: null,
  lastProcessedAt: null,
  recountedAt: null,
  changesAtRecount: 0,
  changes: 0,
  countsGeneration: 0,
});

const minuteOf = (date: Date) => date.toISOString().slice(0, 16);
/** Minute counters outlive the longest analytics range (30 days), then expire on their own (table TTL). */
const minuteCounterTtlSeconds = 31 * 24 * 60 * 60;

export function createEventRepository(table: Table) {
  return {
    /** Numeric ids as the spec uses them ("the event with the highest id"), from an atomic counter. */
    async nextId(): Promise<number> {
      const counter = await table.update<{ value: number }>({ key: keys.counter("event"), add: { value: 1 } });
      if (!counter) throw new Error("Event counter update failed");
      return counter.value;
    },

    async create(event: EventRecord): Promise<void> {
      await table.put({ ...keys.event(event.id), ...keys.eventsIndex(event.id), type: "event", ...event });
      // A new event keeps every counter of this generation from its first photo: no recount is due for them.
      await table.update({ key: keys.eventStats(event.id), set: { eventId: event.id, countsGeneration } });
    },

    get: (eventId: number) => table.get<EventRecord & { pk: string }>(keys.event(eventId)),

    /** Changes some of an existing event's fields; undefined when there is no such event. */
    async update(
      eventId: number,
      changes: Partial<Omit<EventRecord, "id" | "createdAt">>,
    ): Promise<EventRecord | undefined> {
      return table.update<EventRecord & { pk: string }>({
        key: keys.event(eventId),
        set: changes,
        conditions: [{ attribute: "pk", op: "exists" }],
      });
    },

    async list(): Promise<EventRecord[]> {
      return queryAllThenGet<EventRecord & { pk: string }>(table, {
        index: "gsi1",
        partition: eventsIndexPartition,
        descending: true,
      });
    },

    async stats(eventIds: number[]): Promise<Map<number, EventStats>> {
      const found = await table.batchGet<EventStats>(eventIds.map(keys.eventStats));
      const byId = new Map(eventIds.map((id) => [id, emptyStats(id)]));
      for (const stats of found) byId.set(stats.eventId, { ...emptyStats(stats.eventId), ...stats });
      return byId;
    },

    /** A photo became searchable: counted in its UTC minute (for the recent rate) and stamped on the stats. */
    async countProcessed(eventId: number, now: Date): Promise<void> {
      await Promise.all([
        table.update({
          key: keys.eventProcessedMinute(eventId, minuteOf(now)),
          set: { type: "processedMinute", eventId, ttl: Math.floor(now.getTime() / 1000) + minuteCounterTtlSeconds },
          add: { count: 1 },
        }),
        table.update({ key: keys.eventStats(eventId), set: { eventId, lastProcessedAt: now.toISOString() } }),
      ]);
    },

    /** Photos that became searchable in the `minutes` before `now` (this minute included). */
    async processedInLastMinutes(eventId: number, minutes: number, now: Date): Promise<number> {
      const window = Array.from({ length: minutes }, (_, back) => minuteOf(new Date(now.getTime() - back * 60_000)));
      const counters = await table.batchGet<{ count?: number }>(
        window.map((minute) => keys.eventProcessedMinute(eventId, minute)),
      );
      return counters.reduce((sum, counter) => sum + (counter.count ?? 0), 0);
    },

    /**
     * Replaces the counters with a recount read when the stats showed `changes`; false, changing
     * nothing, when a write moved them since (the recount is stale: the next one will do).
     */
    async replaceStats(
      eventId: number,
      counts: Partial<EventCounts>,
      recount: { at: Date; readAtChanges: number; allCounters: boolean },
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.eventStats(eventId),
        set: {
          eventId,
          ...counts,
          recountedAt: recount.at.toISOString(),
          changesAtRecount: recount.readAtChanges,
          // Only a recount of every counter (bib links included) brings them all to this generation.
          ...(recount.allCounters ? { countsGeneration } : {}),
        },
        // `changes` only ever grows from 1 by ADD: zero means no write has counted anything yet.
        conditions: [
          recount.readAtChanges === 0
            ? { attribute: "changes", op: "not_exists" }
            : { attribute: "changes", op: "=", value: recount.readAtChanges },
        ],
      });
      return updated !== undefined;
    },

    /** Where these events' recounts have got to: the ones under way, or stopped and to go on. */
    async recountsUnderWay(eventIds: number[]): Promise<Map<number, RecountPosition>> {
      const found = await table.batchGet<RecountPosition & { eventId: number }>(eventIds.map(keys.eventRecount), {
        attributes: ["eventId", "links", "phase", "counts"],
      });
      return new Map(found.map(({ eventId, ...position }) => [eventId, position]));
    },

    recountCheckpoint: (eventId: number) =>
      table.get<RecountCheckpoint>(keys.eventRecount(eventId), {
        attributes: ["links", "phase", "cursor", "readAtChanges", "counts", "step"],
      }),

    /** Stores the next checkpoint if the stored one is still at `fromStep` (absent: none stored); false if another run moved it. */
    async saveRecountCheckpoint(
      eventId: number,
      checkpoint: RecountCheckpoint,
      fromStep: number | undefined,
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.eventRecount(eventId),
        set: { type: "eventRecount", eventId, ...checkpoint },
        conditions: [
          fromStep === undefined
            ? { attribute: "pk", op: "not_exists" }
            : { attribute: "step", op: "=", value: fromStep },
        ],
      });
      return updated !== undefined;
    },

    async clearRecountCheckpoint(eventId: number): Promise<void> {
      await table.delete(keys.eventRecount(eventId));
    },

    async addStats(eventId: number, deltas: Partial<EventCounts>, now: Date): Promise<void> {
      await table.update({
        key: keys.eventStats(eventId),
        set: { eventId, lastUpdated: now.toISOString() },
        add: { ...(deltas as Record<string, number>), changes: 1 },
      });
    },
  };
}
export type EventRepository = ReturnType<typeof createEventRepository>;
