import type { Table } from "../ports/table";
import { keys } from "./keys";

interface DownloadCountItem {
  downloadCount: number;
}

/**
 * Download counters of a grant (a paid sale or a download code), one per photo. A download is
 * counted by one conditional ADD (`downloadCount < max`), so N parallel requests for the same photo
 * can never count more than `max`: DynamoDB serialises writes to one item.
 */
export function createDownloadCountRepository(table: Table) {
  return {
    /** Counts one download; returns the downloads left for the photo, or null when none was left. */
    async consume(grantPartition: string, photoId: string, max: number): Promise<number | null> {
      const key = keys.downloadCount(grantPartition, photoId);
      // The counter starts at 0 on first use; a lost race to create it is harmless.
      await table.put({ ...key, type: "downloadCount", downloadCount: 0 }, { ifAbsent: true });
      const updated = await table.update<DownloadCountItem>({
        key,
        add: { downloadCount: 1 },
        conditions: [{ attribute: "downloadCount", op: "<", value: max }],
      });
      return updated ? max - updated.downloadCount : null;
    },

    /**
     * Gives back one download counted by `consume` whose file was never handed out (a ZIP that
     * could not be built). Never below 0.
     */
    async release(grantPartition: string, photoId: string): Promise<void> {
      await table.update({
        key: keys.downloadCount(grantPartition, photoId),
        add: { downloadCount: -1 },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "downloadCount", op: "<>", value: 0 },
        ],
      });
    },

    /** Downloads counted so far per photo (0 for a photo never downloaded). */
    async counts(grantPartition: string, photoIds: readonly string[]): Promise<Map<string, number>> {
      const found = await table.batchGet<DownloadCountItem & { sk: string }>(
        photoIds.map((photoId) => keys.downloadCount(grantPartition, photoId)),
      );
      const bySortKey = new Map(found.map((item) => [item.sk, item.downloadCount]));
      return new Map(photoIds.map((photoId) => [photoId, bySortKey.get(`DL#${photoId}`) ?? 0]));
    },
  };
}
export type DownloadCountRepository = ReturnType<typeof createDownloadCountRepository>;
