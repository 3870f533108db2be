import type { Table } from "../ports/table";
import { keys } from "./keys";
import type { PageCursor } from "./photos";

/**
 * Where the background indexing of an event's existing photos for selfie search has got to (one
 * item in the event's partition, so the event's deletion sweeps it). `attempt` tells one switching
 * on from the next: only the latest run may record.
 */
export interface FaceIndexingRecord {
  eventId: number;
  attempt: number;
  /** Photos of the event when the run began; `done` of them looked at so far. */
  total: number;
  done: number;
  cursor: PageCursor | null;
  finished: boolean;
  /** When the run began or last recorded a page: a run silent for long has stopped (resumeFaceIndexing). */
  updatedAt?: string;
  /** The descriptor model the run describes with, where the engine's descriptors are ours (FaceSearch.descriptorModel). */
  model?: string;
}

export function createFaceIndexingRepository(table: Table) {
  return {
    get: (eventId: number) => table.get<FaceIndexingRecord>(keys.faceIndexing(eventId)),

    /** A new run: the attempt after the last one, from the first photo. */
    async begin(eventId: number, total: number, now: string, model: string | undefined): Promise<FaceIndexingRecord> {
      const updated = await table.update<FaceIndexingRecord>({
        key: keys.faceIndexing(eventId),
        set: {
          type: "faceIndexing",
          eventId,
          total,
          done: 0,
          cursor: null,
          finished: false,
          updatedAt: now,
          ...(model ? { model } : {}),
        },
        add: { attempt: 1 },
      });
      if (!updated) throw new Error(`face indexing of event ${eventId} could not begin`);
      return updated;
    },

    /** Records a page; false when a newer run has begun (this one stops). */
    async progress(
      eventId: number,
      attempt: number,
      changes: Pick<FaceIndexingRecord, "done" | "cursor" | "finished" | "updatedAt">,
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.faceIndexing(eventId),
        set: changes,
        conditions: [{ attribute: "attempt", op: "=", value: attempt }],
      });
      return updated !== undefined;
    },

    /** The stopped run's next attempt, from where it got to; undefined when it finished or another claimed it. */
    retry(run: FaceIndexingRecord, now: string): Promise<FaceIndexingRecord | undefined> {
      return table.update<FaceIndexingRecord>({
        key: keys.faceIndexing(run.eventId),
        set: { attempt: run.attempt + 1, updatedAt: now },
        conditions: [
          { attribute: "attempt", op: "=", value: run.attempt },
          { attribute: "finished", op: "=", value: false },
        ],
      });
    },
  };
}
export type FaceIndexingRepository = ReturnType<typeof createFaceIndexingRepository>;
