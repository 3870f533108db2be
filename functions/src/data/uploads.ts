import type { Table } from "../ports/table";
import { keys, uploadFileSortPrefix, uploadPartition, uploadsOfUserPartition } from "./keys";
import type { PhotoRecord } from "./photos";
import { queryAll, queryThenGet } from "./query-all";

/**
 * An upload ("subida") of the upload screen: the files chosen together and sent with one press,
 * or a ZIP (then `zipBatchId` names its batch, which counts it, and it has no files here).
 */
export interface UploadRecord {
  uploadId: string;
  eventId: number;
  uploadedBy: string;
  /** Files chosen when it started: the total its progress is measured against (0 for a ZIP). */
  fileCount: number;
  createdAt: string;
  zipBatchId?: string;
}

/** One file of an upload: the photo it became and that photo's state, mirrored by the pipeline. */
export interface UploadFileRecord {
  uploadId: string;
  /** SHA-256 of the browser's id for the file, so its retries land on the same item. */
  fileHash: string;
  photoId: string;
  originalFilename: string;
  status: PhotoRecord["processingStatus"];
  /** The photo's bytes reached the pipeline (set with every state it mirrors): a file without it was never sent whole. */
  arrived?: boolean;
  updatedAt: string;
}

export function createUploadRepository(table: Table) {
  return {
    async create(upload: UploadRecord): Promise<void> {
      await table.put(
        {
          type: "upload",
          ...upload,
          ...keys.upload(upload.uploadId),
          ...keys.uploadsOfUserIndex(upload.uploadedBy, upload.createdAt, upload.uploadId),
          ...keys.uploadsOfEventIndex(upload.eventId, upload.createdAt, upload.uploadId),
        },
        { ifAbsent: true },
      );
    },

    get: (uploadId: string) => table.get<UploadRecord>(keys.upload(uploadId)),

    /** The user's newest uploads first. */
    async listByUser(userId: string, limit: number): Promise<UploadRecord[]> {
      const page = await queryThenGet<UploadRecord>(table, {
        index: "gsi1",
        partition: uploadsOfUserPartition(userId),
        descending: true,
        limit,
      });
      return page.items;
    },

    /**
     * Points the file at the photo just registered for it, pending: a file sent again (a retried
     * upload) replaces its earlier try, so the upload counts each chosen file once.
     */
    async registerFile(file: UploadFileRecord): Promise<void> {
      await table.put({ type: "uploadFile", ...file, ...keys.uploadFile(file.uploadId, file.fileHash) });
    },

    /**
     * Mirrors a photo's state onto its file, only while the file still points to that photo (an
     * earlier try that arrives late must not overwrite the latest one). Only the pipeline and what
     * follows it change a photo's state, so the file has then arrived. Idempotent: a re-run step
     * writes the same again.
     */
    async setFileStatus(
      photo: Pick<PhotoRecord, "id" | "processingStatus"> & { uploadId: string; uploadFile: string },
      now: Date,
    ): Promise<void> {
      await table.update({
        key: keys.uploadFile(photo.uploadId, photo.uploadFile),
        set: { status: photo.processingStatus, arrived: true, updatedAt: now.toISOString() },
        conditions: [{ attribute: "photoId", op: "=", value: photo.id }],
      });
    },

    /** Every file of an upload: small items, one query page per ~5000 of them. */
    files: (uploadId: string) =>
      queryAll<UploadFileRecord>(table, { partition: uploadPartition(uploadId), sortPrefix: uploadFileSortPrefix }),
  };
}
export type UploadRepository = ReturnType<typeof createUploadRepository>;
