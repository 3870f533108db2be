import { z } from "zod";
import { idParam, type ZipBatchStatus } from "./api";
import { limits } from "./constants";
import { messages } from "./messages";

/**
 * One upload ("subida"): the photos chosen together on the upload screen and sent with one press
 * of 'Subir'. It is what the uploader follows (its own progress, not the event's) and what their
 * history lists.
 */
export const startUploadRequest = z.object({
  eventId: idParam,
  /** Every file chosen for it: the progress total, fixed before the first byte is sent. */
  fileCount: z.number().int().min(1, messages.selectPhoto).max(limits.uploadMaxFiles, messages.uploadTooManyFiles),
});
export type StartUploadRequest = z.input<typeof startUploadRequest>;
export type StartUploadInput = z.output<typeof startUploadRequest>;

/** Which of an upload's files the server has received and what became of each (read from its photos' states). */
export interface UploadSummaryDto {
  kind: "photos";
  uploadId: string;
  eventId: number;
  /** Null once the event was deleted. */
  eventName: string | null;
  createdAt: string;
  /** Files chosen when it started. */
  fileCount: number;
  /**
   * Files whose photo reached the server's processing, whatever became of it; fewer than fileCount
   * while they are on their way, or for good after a cancel.
   */
  receivedPhotos: number;
  /** Processed and searchable. */
  processedPhotos: number;
  failedPhotos: number;
  /** Copies of photos the event already had: not processed or published again. */
  duplicatePhotos: number;
  /** Received and still being processed. */
  pendingPhotos: number;
}

/** One photo of an upload that the event already had. */
export interface UploadDuplicateDto {
  photoId: string;
  originalFilename: string;
  /** The name of the photo the event already had with the same content. */
  duplicateOfFilename: string | null;
}

export interface UploadFailureDto {
  photoId: string;
  originalFilename: string;
  reason: string | null;
}

/** GET /api/photos/my-uploads/{uploadId}: the summary plus the photos that need a word. */
export interface UploadDetailDto extends UploadSummaryDto {
  /** The first of them (the summary's count is complete). */
  duplicates: UploadDuplicateDto[];
  failures: UploadFailureDto[];
}

/** A ZIP sent from the upload screen, as its batch counts it (spec §4's ZIP batch). */
export interface ZipUploadSummaryDto {
  kind: "zip";
  /** A folder imported from the cloud drive, which the server runs as a ZIP's batch. */
  fromDrive: boolean;
  uploadId: string;
  eventId: number;
  eventName: string | null;
  createdAt: string;
  fileName: string;
  status: ZipBatchStatus;
  totalFiles: number;
  extractedFiles: number;
  /** Extracted photos the pipeline has finished with (processed, failed or duplicate). */
  processedFiles: number;
  skippedFiles: number;
}

export interface UploadHistoryDto {
  uploads: (UploadSummaryDto | ZipUploadSummaryDto)[];
}

export const uploadHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(20).default(10),
});

/** DELETE /api/events/{id}/photos/{photoId}: a duplicate removed by an admin. */
export interface RemoveDuplicateResponse {
  removed: true;
  photoId: string;
}
