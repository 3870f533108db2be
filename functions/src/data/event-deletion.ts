import type { Key, QueryInput, Table } from "../ports/table";
import {
  contentHashesOfEventPartition,
  keys,
  photosOfEventPartition,
  uploadPartition,
  uploadsOfEventPartition,
  zipBatchesOfEventPartition,
} from "./keys";

/** Items a sweep reads at a time: enough to keep batch deletes full, few enough for a 5000-photo event. */
const pageSize = 200;

/**
 * Everything stored for an event, found through its own partitions and indexes (docs/data-model.md,
 * "Deleting an event"): never a scan, and never more than one page in memory.
 */
export function createEventDeletionRepository(table: Table) {
  /**
   * Reads `input` a page at a time and deletes each page's items by their `pk`/`sk` (every index
   * projects them) once `onPage` has seen them; returns how many there were.
   */
  async function sweep<T extends object>(
    input: Omit<QueryInput, "cursor" | "limit">,
    onPage?: (items: (T & Key)[]) => Promise<void>,
  ): Promise<number> {
    let count = 0;
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await table.query<T & Key>({ ...input, limit: pageSize, ...(cursor ? { cursor } : {}) });
      if (onPage) await onPage(page.items);
      await table.batchDelete(page.items.map(({ pk, sk }) => ({ pk, sk })));
      count += page.items.length;
      cursor = page.cursor;
    } while (cursor);
    return count;
  }

  return {
    /**
     * Removes the event item itself. Done first: from then on every reader, upload and pipeline
     * step finds the event gone. False when it already was (another deletion got there first).
     */
    deleteEvent: (eventId: number) => table.delete(keys.event(eventId)),

    /** The event's photos, in every state, each with its raw text. */
    sweepPhotos: (eventId: number) =>
      sweep<{ id: string }>({ index: "gsi1", partition: photosOfEventPartition(eventId) }, (photos) =>
        table.batchDelete(photos.map((photo) => keys.photoText(photo.id))),
      ),

    /**
     * The rest of the event's own partition (stats, configuration, minute counters, participants)
     * and, with each participant, its bib's photo links. Participants and links are counted apart.
     */
    async sweepEventPartition(eventId: number): Promise<{ participants: number; bibLinks: number }> {
      let participants = 0;
      let bibLinks = 0;
      await sweep<{ dorsalNumber?: string }>({ partition: keys.event(eventId).pk }, async (items) => {
        const bibs = items.flatMap((item) =>
          item.sk.startsWith("BIB#") && item.dorsalNumber !== undefined ? [item.dorsalNumber] : [],
        );
        participants += bibs.length;
        // A page's bibs side by side: a big event has thousands, each its own small partition.
        const links = await Promise.all(bibs.map((bib) => sweep({ partition: keys.bibPhotosPartition(eventId, bib) })));
        bibLinks += links.reduce((sum, count) => sum + count, 0);
      });
      return { participants, bibLinks };
    },

    /** The duplicate guards (content hashes) of the event's photos. */
    sweepContentHashes: (eventId: number) =>
      sweep({ index: "gsi1", partition: contentHashesOfEventPartition(eventId) }),

    /** The event's ZIP batches, each page shown to `onPage` (to remove their ZIPs) before it is deleted. */
    sweepZipBatches: (eventId: number, onPage: (batches: { batchId: string }[]) => Promise<void>) =>
      sweep<{ batchId: string }>({ index: "gsi1", partition: zipBatchesOfEventPartition(eventId) }, onPage),

    /** The uploads to the event, each with its files (its own partition); returns how many uploads. */
    sweepUploads: (eventId: number) =>
      sweep<{ uploadId: string }>({ index: "gsi2", partition: uploadsOfEventPartition(eventId) }, async (uploads) => {
        await Promise.all(uploads.map(({ uploadId }) => sweep({ partition: uploadPartition(uploadId) })));
      }),

    /** One photo with its bib links: what the pipeline may have written after the event's sweep passed. */
    async deletePhoto(photoId: string): Promise<void> {
      await sweep({ index: "gsi1", partition: keys.bibsOfPhotoPartition(photoId) });
      await table.delete(keys.photoText(photoId));
      await table.delete(keys.photo(photoId));
    },
  };
}
export type EventDeletionRepository = ReturnType<typeof createEventDeletionRepository>;
