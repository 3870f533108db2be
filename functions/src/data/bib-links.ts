import type { Table } from "../ports/table";
import { keys } from "./keys";
import { countLink } from "./participants";
import { queryAll } from "./query-all";

export function createBibLinkRepository(table: Table) {
  return {
    /** The bibs a photo is actually linked under (what search sees). */
    async linkedBibs(photoId: string): Promise<string[]> {
      const page = await table.query<{ bib: string }>({ index: "gsi1", partition: keys.bibsOfPhotoPartition(photoId) });
      return page.items.map((item) => item.bib);
    },

    /** Links a photo to a bib; the participant's and the event's counts follow only a new link. */
    async linkBib(eventId: number, bib: string, photoId: string, uploadedAt: string): Promise<boolean> {
      const created = await table.put(
        {
          ...keys.bibPhoto(eventId, bib, photoId),
          ...keys.bibsOfPhotoIndex(photoId, bib),
          type: "bibPhoto",
          eventId,
          bib,
          photoId,
          uploadedAt,
        },
        { ifAbsent: true },
      );
      if (created) await countLink(table, eventId, bib, 1);
      return created;
    },

    /** Removes a link; the counts follow only a link that existed. */
    async unlinkBib(eventId: number, bib: string, photoId: string): Promise<boolean> {
      const deleted = await table.delete(keys.bibPhoto(eventId, bib, photoId));
      if (deleted) await countLink(table, eventId, bib, -1);
      return deleted;
    },

    /** How many photos are linked under a bib (what its participant's count should be). */
    async countPhotos(eventId: number, bib: string): Promise<number> {
      const links = await queryAll<{ photoId: string }>(table, {
        partition: keys.bibPhotosPartition(eventId, bib),
        attributes: ["photoId"],
      });
      return links.length;
    },

    async photoIdsForBib(eventId: number, bib: string): Promise<string[]> {
      const links = await queryAll<{ photoId: string }>(table, { partition: keys.bibPhotosPartition(eventId, bib) });
      return links.map((link) => link.photoId);
    },
  };
}
export type BibLinkRepository = ReturnType<typeof createBibLinkRepository>;
