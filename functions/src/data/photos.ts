import type { DetectedBib } from "@dorsal/shared";
import type { Table } from "../ports/table";
import type { BoundingBox } from "../ports/vision";
import { keys } from "./keys";

export interface PhotoRecord {
  id: string;
  eventId: number;
  filename: string;
  originalFilename: string;
  originalKey: string;
  webKey: string | null;
  thumbnailKey: string | null;
  detectedDorsals: string[];
  bibs: DetectedBib[];
  faces: { confidence: number; box: BoundingBox }[];
  processed: boolean;
  processingStatus: "pending" | "processing" | "successful" | "failed" | "duplicate";
  failureReason: string | null;
  uploadedAt: string;
  uploadedBy: string;
  processedAt: string | null;
  recognition: { engine: string; version: string; ms: Record<string, number> } | null;
}

export function createPhotoRepository(table: Table) {
  return {
    /** The upload's record, written before the bytes arrive; returns false if it already exists. */
    async createPending(photo: PhotoRecord): Promise<boolean> {
      return table.put(
        {
          ...keys.photo(photo.id),
          ...keys.photosOfEventIndex(photo.eventId, photo.uploadedAt, photo.id),
          type: "photo",
          ...photo,
        },
        { ifAbsent: true },
      );
    },

    get: (photoId: string) => table.get<PhotoRecord & { pk: string }>(keys.photo(photoId)),

    async getMany(photoIds: string[]): Promise<PhotoRecord[]> {
      const found = await table.batchGet<PhotoRecord>(photoIds.map(keys.photo));
      const byId = new Map(found.map((photo) => [photo.id, photo]));
      return photoIds.flatMap((id) => byId.get(id) ?? []);
    },

    /** Moves a pending photo to processing; false if another run got there first. */
    async markProcessing(photoId: string): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { processingStatus: "processing" },
        conditions: [{ attribute: "processingStatus", op: "=", value: "pending" }],
      });
      return updated !== undefined;
    },

    /**
     * Marks the photo processed. Returns false when it already was, so the caller counts each
     * photo once even if the step runs again (redelivered event, retried task).
     */
    async markSuccessful(
      photoId: string,
      fields: Pick<PhotoRecord, "webKey" | "thumbnailKey" | "detectedDorsals" | "bibs" | "faces" | "recognition">,
      now: Date,
    ): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: {
          ...fields,
          processed: true,
          processingStatus: "successful",
          failureReason: null,
          processedAt: now.toISOString(),
        },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "processingStatus", op: "<>", value: "successful" },
        ],
      });
      return updated !== undefined;
    },

    /** Returns false when the photo was already failed or successful (nothing to count). */
    async markFailed(photoId: string, reason: string, now: Date): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { processingStatus: "failed", failureReason: reason, processedAt: now.toISOString() },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "processingStatus", op: "<>", value: "successful" },
          { attribute: "processingStatus", op: "<>", value: "failed" },
        ],
      });
      return updated !== undefined;
    },

    /** Links a photo to a bib; counts the participant's photo only when the link is new. */
    async linkBib(eventId: number, bib: string, photoId: string, uploadedAt: string): Promise<boolean> {
      const created = await table.put(
        { ...keys.bibPhoto(eventId, bib, photoId), type: "bibPhoto", eventId, bib, photoId, uploadedAt },
        { ifAbsent: true },
      );
      if (created) {
        await table.update({
          key: keys.participant(eventId, bib),
          set: { type: "participant", eventId, dorsalNumber: bib },
          add: { photoCount: 1 },
        });
      }
      return created;
    },

    async photoIdsForBib(eventId: number, bib: string): Promise<string[]> {
      const ids: string[] = [];
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await table.query<{ photoId: string }>({
          partition: keys.bibPhotosPartition(eventId, bib),
          ...(cursor ? { cursor } : {}),
        });
        ids.push(...page.items.map((item) => item.photoId));
        cursor = page.cursor;
      } while (cursor);
      return ids;
    },
  };
}
export type PhotoRepository = ReturnType<typeof createPhotoRepository>;
