import { createHash } from "node:crypto";
import {
  messages,
  type StartUploadInput,
  type UploadDetailDto,
  type UploadHistoryDto,
  type UploadSummaryDto,
  type ZipUploadSummaryDto,
} from "@dorsal/shared";
import type { PhotoRecord } from "../data/photos";
import type { UploadFileRecord, UploadRecord } from "../data/uploads";
import type { ZipBatchRecord } from "../data/zip-batches";
import type { Deps } from "./deps";
import { invalid, notFound } from "./errors";
import type { SessionClaims } from "./tokens";
import { assertCanUpload } from "./uploads";

/**
 * The uploader's own uploads ("subidas"): each press of 'Subir' on the upload screen starts one
 * with the number of files chosen, every photo sent for it is registered under it, and the
 * pipeline keeps each file's state in step with its photo. Its progress and the uploader's history
 * are read from those file items (one query per upload, no counter to drift); nobody but the
 * uploader sees an upload, whatever their role.
 */

/** Duplicates and failures an upload's detail names; its counts are complete. */
const namedPhotosMax = 50;

export async function startUpload(
  deps: Deps,
  session: SessionClaims,
  request: StartUploadInput,
): Promise<UploadSummaryDto> {
  await assertCanUpload(deps, session, request.eventId);
  const upload: UploadRecord = {
    uploadId: deps.ids.newId(),
    eventId: request.eventId,
    uploadedBy: session.userId,
    fileCount: request.fileCount,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.uploads.create(upload);
  const event = await deps.events.get(upload.eventId);
  return summaryOf(upload, event?.name ?? null, []);
}

/**
 * The upload a photo is being registered for: the caller's own, for the same event. Returns the
 * fields the photo carries so the pipeline can keep its file's state in step.
 */
export async function uploadFileOf(
  deps: Deps,
  session: Pick<SessionClaims, "userId">,
  eventId: number,
  ref: { uploadId: string; fileKey: string },
): Promise<{ uploadId: string; uploadFile: string }> {
  const upload = await ownUpload(deps, session, ref.uploadId);
  if (upload.eventId !== eventId) throw invalid(messages.uploadOtherEvent);
  return { uploadId: upload.uploadId, uploadFile: createHash("sha256").update(ref.fileKey).digest("hex").slice(0, 32) };
}

/** Written after the photo itself, so a file never points to a photo that does not exist. */
export async function registerUploadFile(deps: Deps, photo: PhotoRecord): Promise<void> {
  if (!photo.uploadId || !photo.uploadFile) return;
  await deps.uploads.registerFile({
    uploadId: photo.uploadId,
    fileHash: photo.uploadFile,
    photoId: photo.id,
    originalFilename: photo.originalFilename,
    status: photo.processingStatus,
    updatedAt: deps.clock.now().toISOString(),
  });
}

/**
 * Called wherever a photo's state changes for good (settled, or back to pending for a re-run): a
 * photo sent from the upload screen moves its file's state along. Running it twice changes nothing.
 */
export async function settleUploadPhoto(deps: Deps, photo: PhotoRecord | undefined): Promise<void> {
  if (!photo?.uploadId || !photo.uploadFile) return;
  await deps.uploads.setFileStatus(
    { id: photo.id, processingStatus: photo.processingStatus, uploadId: photo.uploadId, uploadFile: photo.uploadFile },
    deps.clock.now(),
  );
}

/** A ZIP batch just made is one of its uploader's uploads too; its batch keeps its counts. */
export async function recordZipUpload(deps: Deps, batch: ZipBatchRecord): Promise<void> {
  await deps.uploads.create({
    uploadId: batch.batchId,
    eventId: batch.eventId,
    uploadedBy: batch.uploadedBy,
    fileCount: 0,
    createdAt: batch.createdAt,
    zipBatchId: batch.batchId,
  });
}

/** The caller's newest uploads (photos and ZIPs) with their counts, newest first. */
export async function listMyUploads(deps: Deps, session: SessionClaims, limit: number): Promise<UploadHistoryDto> {
  const uploads = await deps.uploads.listByUser(session.userId, limit);
  const names = await eventNames(
    deps,
    uploads.map((upload) => upload.eventId),
  );
  const summaries = await Promise.all(
    uploads.map(async (upload): Promise<UploadSummaryDto | ZipUploadSummaryDto | undefined> => {
      const eventName = names.get(upload.eventId) ?? null;
      if (!upload.zipBatchId) return summaryOf(upload, eventName, await deps.uploads.files(upload.uploadId));
      const batch = await deps.zipBatches.get(upload.zipBatchId);
      return batch ? zipSummaryOf(upload, eventName, batch) : undefined;
    }),
  );
  return { uploads: summaries.filter((summary) => summary !== undefined) };
}

/** One of the caller's uploads, with the photos the event already had and those that failed. */
export async function getMyUpload(deps: Deps, session: SessionClaims, uploadId: string): Promise<UploadDetailDto> {
  const upload = await ownUpload(deps, session, uploadId);
  const [files, event] = await Promise.all([deps.uploads.files(uploadId), deps.events.get(upload.eventId)]);
  const duplicateFiles = files.filter((file) => file.status === "duplicate").slice(0, namedPhotosMax);
  const failedFiles = files.filter((file) => file.status === "failed").slice(0, namedPhotosMax);
  const photos = await deps.photos.getMany([...duplicateFiles, ...failedFiles].map((file) => file.photoId));
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  const holderIds = photos.flatMap((photo) => (photo.duplicateOf ? [photo.duplicateOf] : []));
  const holders = new Map((await deps.photos.getMany([...new Set(holderIds)])).map((photo) => [photo.id, photo]));
  return {
    ...summaryOf(upload, event?.name ?? null, files),
    duplicates: duplicateFiles.map((file) => {
      const holderId = byId.get(file.photoId)?.duplicateOf;
      return {
        photoId: file.photoId,
        originalFilename: file.originalFilename,
        duplicateOfFilename: (holderId && holders.get(holderId)?.originalFilename) || null,
      };
    }),
    failures: failedFiles.map((file) => ({
      photoId: file.photoId,
      originalFilename: file.originalFilename,
      reason: byId.get(file.photoId)?.failureReason ?? null,
    })),
  };
}

/**
 * One of the caller's photo uploads. Someone else's is "not found": whether it exists is none of
 * the caller's business. A ZIP is followed through its batch (`/api/photos/batch-status/{id}`).
 */
async function ownUpload(deps: Deps, session: Pick<SessionClaims, "userId">, uploadId: string) {
  const upload = await deps.uploads.get(uploadId);
  if (!upload || upload.uploadedBy !== session.userId || upload.zipBatchId) throw notFound(messages.uploadNotFound);
  return upload;
}

async function eventNames(deps: Deps, eventIds: number[]): Promise<Map<number, string>> {
  const events = await Promise.all([...new Set(eventIds)].map((id) => deps.events.get(id)));
  return new Map(events.flatMap((event) => (event ? [[event.id, event.name] as const] : [])));
}

function summaryOf(upload: UploadRecord, eventName: string | null, files: UploadFileRecord[]): UploadSummaryDto {
  const counts = { receivedPhotos: 0, processedPhotos: 0, failedPhotos: 0, duplicatePhotos: 0, pendingPhotos: 0 };
  for (const file of files) {
    // Registered but never arrived (still on its way, or cancelled): not the pipeline's yet.
    if (!file.arrived) continue;
    counts.receivedPhotos++;
    if (file.status === "successful") counts.processedPhotos++;
    else if (file.status === "failed") counts.failedPhotos++;
    else if (file.status === "duplicate") counts.duplicatePhotos++;
    else counts.pendingPhotos++;
  }
  return {
    kind: "photos",
    uploadId: upload.uploadId,
    eventId: upload.eventId,
    eventName,
    createdAt: upload.createdAt,
    fileCount: upload.fileCount,
    ...counts,
  };
}

function zipSummaryOf(upload: UploadRecord, eventName: string | null, batch: ZipBatchRecord): ZipUploadSummaryDto {
  return {
    kind: "zip",
    fromDrive: batch.driveFolderId !== undefined,
    uploadId: upload.uploadId,
    eventId: upload.eventId,
    eventName,
    createdAt: upload.createdAt,
    fileName: batch.filename,
    status: batch.status,
    totalFiles: batch.totalFiles,
    extractedFiles: batch.extractedFiles,
    processedFiles: batch.processedFiles,
    skippedFiles: batch.skippedFiles,
  };
}
