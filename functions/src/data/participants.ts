import type { Table } from "../ports/table";
import { keys } from "./keys";
import { queryAll } from "./query-all";

export interface BibWithPhotos {
  dorsalNumber: string;
  photoCount: number;
}

/** How many events' bib grids one process keeps (the events athletes browse at once). */
const bibGridEvents = 64;

/**
 * Every change of a participant's photo count bumps `bibCountsVersion` on the event's stats, after
 * the count is written: a grid read at a version therefore holds every change up to it.
 */
const bumpBibCountsVersion = (table: Table, eventId: number, add: Record<string, number> = {}) =>
  table.update({ key: keys.eventStats(eventId), set: { eventId }, add: { ...add, bibCountsVersion: 1 } });

/** A bib link made (1) or removed (-1): the participant's photo count and the event's counts follow it. */
export async function countLink(table: Table, eventId: number, bib: string, delta: 1 | -1): Promise<void> {
  await table.update({
    key: keys.participant(eventId, bib),
    set: { type: "participant", eventId, dorsalNumber: bib },
    add: { photoCount: delta },
  });
  await bumpBibCountsVersion(table, eventId, { dorsalsDetected: delta, changes: 1 });
}

export function createParticipantRepository(table: Table) {
  /**
   * The bib grid reads an event's every participant to cut a page of 100; on race day thousands of
   * athletes open it while counts change a few times a second at most. The list is kept per event
   * with the version it was read at, and read again once the stored version moved on: never older
   * than the last change that finished before the request. A miss is shared by those who wait on it.
   */
  const bibGrids = new Map<number, { version: number; bibs: Promise<readonly BibWithPhotos[]> }>();

  return {
    /** Every participant (bib) of an event with its stored photo count, in bib order. */
    async participantCounts(eventId: number): Promise<Map<string, number>> {
      const participants = await queryAll<{ dorsalNumber: string; photoCount?: number }>(table, {
        partition: keys.event(eventId).pk,
        sortPrefix: "BIB#",
      });
      return new Map(participants.map((participant) => [participant.dorsalNumber, participant.photoCount ?? 0]));
    },

    /** The event's bibs that have photos, in bib order, with their counts (the public bib grid). */
    async bibsWithPhotos(eventId: number): Promise<readonly BibWithPhotos[]> {
      const stats = await table.get<{ bibCountsVersion?: number }>(keys.eventStats(eventId), {
        attributes: ["bibCountsVersion"],
      });
      const version = stats?.bibCountsVersion ?? 0;
      const kept = bibGrids.get(eventId);
      // Re-inserted on use: the Map's first entry is the event browsed least recently.
      bibGrids.delete(eventId);
      if (kept?.version === version) {
        bibGrids.set(eventId, kept);
        return kept.bibs;
      }
      // Strongly consistent: an index-free read that sees every count the version stands for.
      const bibs = queryAll<{ dorsalNumber: string; photoCount?: number }>(table, {
        partition: keys.event(eventId).pk,
        sortPrefix: "BIB#",
        consistent: true,
        attributes: ["dorsalNumber", "photoCount"],
      }).then((participants) =>
        participants.flatMap(({ dorsalNumber, photoCount }) =>
          photoCount && photoCount > 0 ? [{ dorsalNumber, photoCount }] : [],
        ),
      );
      const entry = { version, bibs };
      bibGrids.set(eventId, entry);
      bibs.catch(() => {
        if (bibGrids.get(eventId) === entry) bibGrids.delete(eventId);
      });
      for (const oldest of bibGrids.keys()) {
        if (bibGrids.size <= bibGridEvents) break;
        bibGrids.delete(oldest);
      }
      return bibs;
    },

    /** The stored photo counts of some of an event's bibs (a bib with no photo is absent). */
    async participantCountsOf(eventId: number, bibs: readonly string[]): Promise<Map<string, number>> {
      const participants = await table.batchGet<{ dorsalNumber: string; photoCount?: number }>(
        bibs.map((bib) => keys.participant(eventId, bib)),
      );
      return new Map(participants.map((participant) => [participant.dorsalNumber, participant.photoCount ?? 0]));
    },

    /**
     * Overwrites a participant's photo count with a recount, unless a link moved it since the recount
     * read it as `readCount` (undefined: the participant did not exist). False when it changed nothing.
     */
    async replaceParticipantCount(
      eventId: number,
      bib: string,
      photoCount: number,
      readCount: number | undefined,
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.participant(eventId, bib),
        set: { type: "participant", eventId, dorsalNumber: bib, photoCount },
        conditions: [
          readCount === undefined
            ? { attribute: "pk", op: "not_exists" }
            : { attribute: "photoCount", op: "=", value: readCount },
        ],
      });
      if (updated === undefined) return false;
      // Not `changes`: the recount that called this compares `changes` to what it read.
      await bumpBibCountsVersion(table, eventId);
      return true;
    },
  };
}
export type ParticipantRepository = ReturnType<typeof createParticipantRepository>;
