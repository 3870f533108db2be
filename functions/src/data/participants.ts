import type { Item, Table } from "../ports/table";
import { keys, participantRankPartition } from "./keys";
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

/** The participant's place in the event's ranking by photos: listed while it has any. */
const rankFields = (eventId: number, bib: string, photoCount: number) =>
  photoCount > 0 ? { set: keys.participantRankIndex(eventId, bib, photoCount) } : { remove: ["gsi1pk", "gsi1sk"] };

/**
 * A bib link made (1) or removed (-1): the participant's photo count and the event's counts follow
 * it. The ranking is a second write, made only if the count is still the one this change left
 * (a later change ranks it itself); the bib's first photo or its last gone moves the event's
 * count of bibs with photos. A process stopped in between leaves these for the recount.
 */
export async function countLink(table: Table, eventId: number, bib: string, delta: 1 | -1): Promise<void> {
  const participant = await table.update<{ photoCount?: number }>({
    key: keys.participant(eventId, bib),
    set: { type: "participant", eventId, dorsalNumber: bib },
    add: { photoCount: delta },
  });
  const photoCount = participant?.photoCount ?? 0;
  await table.update({
    key: keys.participant(eventId, bib),
    ...rankFields(eventId, bib, photoCount),
    conditions: [{ attribute: "photoCount", op: "=", value: photoCount }],
  });
  const crossed = delta === 1 ? photoCount === 1 : photoCount === 0;
  await bumpBibCountsVersion(table, eventId, {
    dorsalsDetected: delta,
    changes: 1,
    ...(crossed ? { bibsWithPhotos: delta } : {}),
  });
}

/** A participant as the recount reads it: its stored count, and whether its ranking agrees. */
export interface StoredParticipant {
  dorsalNumber: string;
  photoCount: number;
  ranked: boolean;
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

    /** A page of the event's participants in bib order, as the recount checks them. */
    async participantsPage(
      eventId: number,
      options: { limit: number; cursor?: Item | undefined },
    ): Promise<{ participants: StoredParticipant[]; cursor?: Item }> {
      const page = await table.query<{ dorsalNumber: string; photoCount?: number; gsi1sk?: string }>({
        partition: keys.event(eventId).pk,
        sortPrefix: "BIB#",
        consistent: true,
        attributes: ["dorsalNumber", "photoCount", "gsi1sk"],
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return {
        participants: page.items.map(({ dorsalNumber, photoCount = 0, gsi1sk }) => {
          const ranked =
            photoCount > 0
              ? gsi1sk === keys.participantRankIndex(eventId, dorsalNumber, photoCount).gsi1sk
              : gsi1sk === undefined;
          return { dorsalNumber, photoCount, ranked };
        }),
        ...(page.cursor ? { cursor: page.cursor } : {}),
      };
    },

    /** The event's `count` bibs with the most photos, most first (ties: the lower bib first). */
    async topByPhotos(eventId: number, count: number): Promise<BibWithPhotos[]> {
      const page = await table.query<{ dorsalNumber: string; photoCount?: number }>({
        index: "gsi1",
        partition: participantRankPartition(eventId),
        descending: true,
        limit: count,
        attributes: ["dorsalNumber", "photoCount"],
      });
      return page.items.map(({ dorsalNumber, photoCount = 0 }) => ({ dorsalNumber, photoCount }));
    },

    /** The stored photo counts of some of an event's bibs (a bib with no photo is absent). */
    async participantCountsOf(eventId: number, bibs: readonly string[]): Promise<Map<string, number>> {
      const participants = await table.batchGet<{ dorsalNumber: string; photoCount?: number }>(
        bibs.map((bib) => keys.participant(eventId, bib)),
      );
      return new Map(participants.map((participant) => [participant.dorsalNumber, participant.photoCount ?? 0]));
    },

    /**
     * Overwrites a participant's photo count (and its ranking) with a recount, unless a link moved it
     * since the recount read it as `readCount` (undefined: the participant did not exist). False
     * when it changed nothing.
     */
    async replaceParticipantCount(
      eventId: number,
      bib: string,
      photoCount: number,
      readCount: number | undefined,
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.participant(eventId, bib),
        set: {
          type: "participant",
          eventId,
          dorsalNumber: bib,
          photoCount,
          ...(photoCount > 0 ? keys.participantRankIndex(eventId, bib, photoCount) : {}),
        },
        ...(photoCount > 0 ? {} : { remove: ["gsi1pk", "gsi1sk"] }),
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
