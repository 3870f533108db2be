import type { DetectedBib, ManualBibs } from "@dorsal/shared";
import type { Table } from "../ports/table";
import type { BoundingBox, TextDetection } from "../ports/vision";
import { failedPhotosOfEventPrefix, failedPhotosPartition, keys, photosOfEventPartition } from "./keys";
import { queryThenGet } from "./query-all";
import { countedPhotoAttributes } from "./table-schema";

export interface PhotoRecord {
  id: string;
  eventId: number;
  filename: string;
  originalFilename: string;
  originalKey: string;
  webKey: string | null;
  thumbnailKey: string | null;
  /** The public copies (null until processed): watermarked preview and thumbnail for paid events, GRATIS/DEMO copy for free ones. */
  previewKey: string | null;
  previewThumbnailKey: string | null;
  gratisKey: string | null;
  /** The bib numbers the photo is found under: machine bibs, minus manual removals, plus manual additions. */
  detectedDorsals: string[];
  /** The same, with confidence, box and source. */
  bibs: DetectedBib[];
  /** What the bib rules made of the engine's text, before manual corrections. */
  machineBibs: DetectedBib[];
  manualBibs: ManualBibs;
  /**
   * Machine reads not on the event's start list (so not among `bibs`), each with the listed bibs it
   * is one misread away from; absent or empty when the event has no list.
   */
  bibSuggestions?: { number: string; nearest: string[] }[];
  /** Bumped on every bib change: concurrent editors retry instead of overwriting each other. */
  bibsVersion: number;
  /**
   * The engine's raw text, kept so bibs can be re-derived under new rules without reading the photo
   * again. Stored in an item of its own (keys.photoText) since issue 19, so that every read of a
   * photo does not carry it; only photos processed before keep it here, until a re-run or a re-index
   * moves it (`moveTextApart`). Read it with `textOf`.
   */
  textDetections?: TextDetection[];
  imageSize: { width: number; height: number } | null;
  faces: { confidence: number; box: BoundingBox }[];
  processed: boolean;
  processingStatus: "pending" | "processing" | "successful" | "failed" | "duplicate";
  failureReason: string | null;
  uploadedAt: string;
  uploadedBy: string;
  processedAt: string | null;
  recognition: { engine: string; version: string; ms: Record<string, number> } | null;
  /** Set at upload when the uploader asked to keep copies of photos the event already has. */
  forceDuplicates?: boolean;
  /** For a `duplicate` photo: the photo of the same event with the same bytes. */
  duplicateOf?: string | null;
  /** A duplicate an admin is removing: set by the one request that claimed it. */
  removedAt?: string;
  /** SHA-256 (hex) of the original, once the pipeline has read it. */
  contentHash?: string;
  /** Extracted from a ZIP: its batch and the entry's index, so the batch counts the photo once when it settles. */
  zipBatchId?: string;
  zipEntry?: number;
  /** Sent from the upload screen: its upload and file (`fileHash`), whose state the pipeline keeps in step. */
  uploadId?: string;
  uploadFile?: string;
  /** How many times the pipeline began processing the photo (each run that reached Prepare's mark). */
  attempts?: number;
  /** Whether the event's totalPhotos counts this photo now, so a re-run un-counts it exactly once. */
  countedInTotal?: boolean;
  /** How many times an admin re-ran the photo from the failed list; names each re-run's execution. */
  reruns?: number;
}

export const newPhotoFields = {
  webKey: null,
  thumbnailKey: null,
  previewKey: null,
  previewThumbnailKey: null,
  gratisKey: null,
  detectedDorsals: [],
  bibs: [],
  machineBibs: [],
  manualBibs: { added: [], removed: [] },
  bibsVersion: 0,
  imageSize: null,
  faces: [],
  processed: false,
  processingStatus: "pending",
  failureReason: null,
  processedAt: null,
  recognition: null,
  countedInTotal: false,
} satisfies Partial<PhotoRecord>;

export type PageCursor = Record<string, unknown>;

/**
 * What a photo's view (app/photo-view.ts) and the screens' filters read: never recognition's raw
 * text, faces or pipeline bookkeeping, which make up most of a processed photo's item.
 */
export const photoViewAttributes = [
  "id",
  "eventId",
  "filename",
  "originalFilename",
  "webKey",
  "thumbnailKey",
  "previewKey",
  "previewThumbnailKey",
  "gratisKey",
  "detectedDorsals",
  "bibs",
  "manualBibs",
  "processed",
  "processingStatus",
  "failureReason",
  "uploadedAt",
  "processedAt",
] as const satisfies readonly (keyof PhotoRecord)[];

export type PhotoView = Pick<PhotoRecord, (typeof photoViewAttributes)[number]>;

export type CountedPhoto = Pick<PhotoRecord, Exclude<(typeof countedPhotoAttributes)[number], "gsi2pk">> & {
  gsi2pk?: string;
};

// gsi2 also lists failed photos: only the "Sin dorsal" partition counts here.
const isListedAsUnbibbed = (photo: Pick<PhotoRecord, "eventId"> & { gsi2pk?: unknown }) =>
  photo.gsi2pk === keys.unbibbedPhotosPartition(photo.eventId);

export function createPhotoRepository(table: Table) {
  const storeText = async (photoId: string, textDetections: TextDetection[]) => {
    // The photo's id in the item too: what it belongs to is readable without parsing the key.
    await table.put({ ...keys.photoText(photoId), type: "photoText", photoId, textDetections });
  };

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

    /** As getMany, reading only what a photo's view shows (photoViewAttributes). */
    async getViews(photoIds: string[]): Promise<PhotoView[]> {
      const found = await table.batchGet<PhotoView>(photoIds.map(keys.photo), { attributes: photoViewAttributes });
      const byId = new Map(found.map((photo) => [photo.id, photo]));
      return photoIds.flatMap((id) => byId.get(id) ?? []);
    },

    /** A page of an event's photos in upload order; `unbibbed` lists only processed photos without a bib. */
    async listByEvent(
      eventId: number,
      options: { unbibbed: boolean; limit: number; cursor?: PageCursor | undefined },
    ): Promise<{ photos: PhotoRecord[]; cursor?: PageCursor }> {
      const paging = { limit: options.limit, ...(options.cursor ? { cursor: options.cursor } : {}) };
      const page = options.unbibbed
        ? await table.query<PhotoRecord>({ index: "gsi2", partition: keys.unbibbedPhotosPartition(eventId), ...paging })
        : await queryThenGet<PhotoRecord>(table, {
            index: "gsi1",
            partition: photosOfEventPartition(eventId),
            ...paging,
          });
      return { photos: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    /** Moves a pending photo to processing; false if another run got there first. */
    async markProcessing(photoId: string): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { processingStatus: "processing", countedInTotal: true },
        add: { attempts: 1 },
        conditions: [{ attribute: "processingStatus", op: "=", value: "pending" }],
      });
      return updated !== undefined;
    },

    /**
     * Stores what processing produced and marks the photo successful. Returns false when it
     * already was, so the caller counts each photo once even if the step runs again.
     */
    async markSuccessful(
      photoId: string,
      {
        textDetections,
        ...fields
      }: Pick<
        PhotoRecord,
        | "webKey"
        | "thumbnailKey"
        | "previewKey"
        | "previewThumbnailKey"
        | "gratisKey"
        | "faces"
        | "recognition"
        | "imageSize"
      > & { textDetections: TextDetection[] },
      now: Date,
    ): Promise<boolean> {
      // The text first: a successful photo always has it.
      await storeText(photoId, textDetections);
      const base = { ...fields, processed: true, failureReason: null, processedAt: now.toISOString() };
      // A photo processed before the text had its own item sheds its copy on a re-run.
      const remove = ["textDetections"];
      const first = await table.update({
        key: keys.photo(photoId),
        set: { ...base, processingStatus: "successful" },
        remove,
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "processingStatus", op: "<>", value: "successful" },
        ],
      });
      if (first) return true;
      // A re-run refreshes the results but must not count the photo again.
      const again = await table.update({
        key: keys.photo(photoId),
        set: base,
        remove,
        conditions: [{ attribute: "pk", op: "exists" }],
      });
      // The photo is gone (its event was deleted meanwhile): so is its text.
      if (!again) await table.delete(keys.photoText(photoId));
      return false;
    },

    /** Stores a processed photo's raw text (the record step; seeding in benchmarks). */
    storeText,

    /**
     * Moves the raw text an older photo carries (from before the text had its own item) into its
     * own item, and drops it from the photo: each later read of the photo carries ~1.4 KB instead
     * of ~5 KB. The text is written first, so a crash between the two leaves it in both, never lost.
     */
    async moveTextApart(photo: Pick<PhotoRecord, "id" | "textDetections">): Promise<boolean> {
      if (!photo.textDetections) return false;
      await storeText(photo.id, photo.textDetections);
      const moved = await table.update({
        key: keys.photo(photo.id),
        remove: ["textDetections"],
        conditions: [{ attribute: "textDetections", op: "exists" }],
      });
      return moved !== undefined;
    },

    /** A processed photo's raw text, wherever it was stored (its own item, or the photo for older ones). */
    async textOf(photo: Pick<PhotoRecord, "id" | "textDetections">): Promise<TextDetection[]> {
      const stored = await table.get<{ textDetections: TextDetection[] }>(keys.photoText(photo.id));
      return stored?.textDetections ?? photo.textDetections ?? [];
    },

    /**
     * Claims the event's content-hash guard for this photo (a conditional put, written first) and
     * returns the photo that holds it: this one, or the earlier photo with the same bytes.
     */
    async claimContentHash(eventId: number, sha256: string, photoId: string, now: Date): Promise<string> {
      const key = keys.contentHash(eventId, sha256);
      const claimed = await table.put(
        {
          ...key,
          ...keys.contentHashesOfEventIndex(eventId, sha256),
          type: "photoHash",
          eventId,
          sha256,
          photoId,
          createdAt: now.toISOString(),
        },
        { ifAbsent: true },
      );
      if (claimed) return photoId;
      const holder = await table.get<{ photoId: string }>(key);
      return holder?.photoId ?? photoId;
    },

    /**
     * Marks a photo as a copy of `duplicateOf`: never searchable, never processed. Returns false when
     * it already was a duplicate, or had finished otherwise, so the caller counts it once.
     */
    async markDuplicate(photoId: string, duplicateOf: string, sha256: string, now: Date): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: {
          processingStatus: "duplicate",
          processed: false,
          duplicateOf,
          contentHash: sha256,
          processedAt: now.toISOString(),
        },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "processingStatus", op: "<>", value: "successful" },
          { attribute: "processingStatus", op: "<>", value: "failed" },
          { attribute: "processingStatus", op: "<>", value: "duplicate" },
        ],
      });
      return updated !== undefined;
    },

    /**
     * Claims a duplicate's removal for one caller: true only for the request that claimed it, so
     * the event's counters drop once even when two admins remove it together.
     */
    async claimDuplicateRemoval(photoId: string, now: Date): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { removedAt: now.toISOString() },
        conditions: [
          { attribute: "processingStatus", op: "=", value: "duplicate" },
          { attribute: "removedAt", op: "not_exists" },
        ],
      });
      return updated !== undefined;
    },

    /**
     * Records the failure and lists the photo among the failed (the admin's dead-letter list).
     * Returns false when the photo was already failed or successful (nothing to count).
     */
    async markFailed(photoId: string, reason: string, now: Date, eventId: number): Promise<boolean> {
      const failedAt = now.toISOString();
      const updated = await table.update({
        key: keys.photo(photoId),
        set: {
          processingStatus: "failed",
          failureReason: reason,
          processedAt: failedAt,
          ...keys.failedPhotosIndex(eventId, failedAt, photoId),
        },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "processingStatus", op: "<>", value: "successful" },
          { attribute: "processingStatus", op: "<>", value: "failed" },
        ],
      });
      return updated !== undefined;
    },

    /**
     * Takes a failed photo off the failed list and back to pending for a re-run; undefined when it
     * is not failed (already re-run, or never failed), so a repeated request starts nothing twice.
     */
    resetFailed: (photoId: string) =>
      table.update<PhotoRecord>({
        key: keys.photo(photoId),
        set: { processingStatus: "pending", failureReason: null, processedAt: null },
        add: { reruns: 1 },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [{ attribute: "processingStatus", op: "=", value: "failed" }],
      }),

    /** Un-counts the photo from its event's total once; true only for the call that did it. */
    async releaseFromTotal(photoId: string): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { countedInTotal: false },
        conditions: [{ attribute: "countedInTotal", op: "=", value: true }],
      });
      return updated !== undefined;
    },

    /** Counts a photo that never reached Prepare's mark (its upload never arrived) in its event's total, once. */
    async claimForTotal(photoId: string): Promise<boolean> {
      const updated = await table.update({
        key: keys.photo(photoId),
        set: { countedInTotal: true },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "countedInTotal", op: "<>", value: true },
        ],
      });
      return updated !== undefined;
    },

    /** A page of failed photos, oldest event first; one event's only with `eventId`, failed before `failedBefore` if given. */
    async listFailed(options: {
      eventId?: number | undefined;
      failedBefore?: string | undefined;
      limit: number;
      cursor?: PageCursor | undefined;
    }): Promise<{ photos: PhotoRecord[]; cursor?: PageCursor }> {
      const prefix = options.eventId === undefined ? undefined : failedPhotosOfEventPrefix(options.eventId);
      const range =
        prefix === undefined
          ? {}
          : options.failedBefore
            ? { sortBetween: [prefix, `${prefix}${options.failedBefore}`] as [string, string] }
            : { sortPrefix: prefix };
      const page = await table.query<PhotoRecord>({
        index: "gsi2",
        partition: failedPhotosPartition,
        ...range,
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return { photos: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },

    /**
     * Writes a photo's bibs if nobody changed them since `expectedVersion` was read; returns false
     * on a concurrent change so the caller re-reads and retries.
     */
    async writeBibs(
      photo: PhotoRecord,
      expectedVersion: number,
      next: Pick<PhotoRecord, "machineBibs" | "manualBibs" | "bibs" | "detectedDorsals" | "bibSuggestions">,
    ): Promise<boolean> {
      const unbibbed = next.detectedDorsals.length === 0 && photo.processingStatus === "successful";
      const wasUnbibbed = isListedAsUnbibbed(photo);
      const updated = await table.update({
        key: keys.photo(photo.id),
        set: {
          ...next,
          bibsVersion: expectedVersion + 1,
          ...(unbibbed ? keys.unbibbedPhotosIndex(photo.eventId, photo.uploadedAt, photo.id) : {}),
        },
        ...(unbibbed ? {} : { remove: ["gsi2pk", "gsi2sk"] }),
        conditions: [{ attribute: "bibsVersion", op: "=", value: expectedVersion }],
      });
      if (updated === undefined) return false;
      // Only this write moves the photo on or off "Sin dorsal", and the version it won says where it
      // was: the event's count follows exactly (a process stopped in between leaves it to the recount).
      if (wasUnbibbed !== unbibbed) {
        await table.update({
          key: keys.eventStats(photo.eventId),
          set: { eventId: photo.eventId },
          add: { unbibbedPhotos: unbibbed ? 1 : -1, changes: 1 },
        });
      }
      return true;
    },

    isListedAsUnbibbed,

    /** A page of an event's photos in upload order, with only what the counter recount reads. */
    async countingPage(
      eventId: number,
      options: { limit: number; cursor?: PageCursor | undefined },
    ): Promise<{ photos: CountedPhoto[]; cursor?: PageCursor }> {
      const page = await table.query<CountedPhoto>({
        index: "gsi1",
        partition: photosOfEventPartition(eventId),
        attributes: countedPhotoAttributes,
        limit: options.limit,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return { photos: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },
  };
}
export type PhotoRepository = ReturnType<typeof createPhotoRepository>;
