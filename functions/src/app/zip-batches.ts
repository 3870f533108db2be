import {
  messages,
  type ZipBatchCreated,
  type ZipBatchStatusResponse,
  type ZipUploadResponse,
  zipTooLargeMessage,
} from "@dorsal/shared";
import type { S3Event } from "aws-lambda";
import yauzl from "yauzl";
import type { PhotoRecord } from "../data/photos";
import { newBatchFields, type ZipBatchRecord } from "../data/zip-batches";
import type { Logger } from "../logger";
import type { Deps } from "./deps";
import { type DriveImportDeps, importDriveFolder } from "./drive-import";
import { invalid, notFound, tooLarge } from "./errors";
import { recordZipUpload } from "./my-uploads";
import { objectsCreatedIn } from "./s3-notifications";
import { parseDriveImportKey, parseZipUploadKey, zipUploadKey } from "./storage-paths";
import type { SessionClaims } from "./tokens";
import { assertCanUpload } from "./uploads";
import { importZip } from "./zip-extraction";
import { countFiles, zipOptions } from "./zip-reading";

/**
 * ZIP imports (spec §2.5, §4, §7): a batch is created (`uploading`), the ZIP lands in the originals
 * bucket under uploads/zips/, and its object-created event runs `importZip` (`extracting`), which
 * reads the archive in place by byte ranges — never whole in memory or on disk — and writes each
 * acceptable photo as a pending original, exactly like a normal upload. From there each photo takes
 * the ordinary pipeline (`processing`); when the last one settles the batch is `completed`.
 */

/**
 * Called by the pipeline when a photo settles (successful, failed or duplicate): a photo that came
 * from a ZIP counts once for its batch — re-running the step changes nothing — and the last one
 * completes the batch.
 */
export async function settleZipPhoto(
  deps: Pick<Deps, "clock" | "photos" | "zipBatches">,
  photoOrId: PhotoRecord | string,
): Promise<void> {
  const photo = typeof photoOrId === "string" ? await deps.photos.get(photoOrId) : photoOrId;
  if (!photo?.zipBatchId || photo.zipEntry === undefined) return;
  const counted = await deps.zipBatches.markSettled(photo.zipBatchId, photo.zipEntry, deps.clock.now());
  if (counted) await deps.zipBatches.completeIfSettled(counted, deps.clock.now());
}

/** The S3 object-created notification of uploaded ZIPs and drive imports (S3 → Lambda in AWS, s3rver locally). */
export async function importZipsFrom(
  deps: DriveImportDeps,
  logger: Logger,
  notification: Partial<S3Event>,
): Promise<void> {
  for (const { key } of objectsCreatedIn(deps.objects.bucketName("originals"), notification)) {
    const parsed = parseZipUploadKey(key);
    if (parsed) await importZip(deps, logger, parsed.batchId);
    const drive = parseDriveImportKey(key);
    if (drive) await importDriveFolder(deps, logger, drive.batchId);
  }
}

/**
 * After a restart: a batch interrupted while extracting is extracted again (idempotently), one
 * still `uploading` whose ZIP did arrive (its event was lost) is extracted now, and one
 * `processing` whose photos all settled meanwhile is completed.
 */
export async function resumeZipBatches(deps: DriveImportDeps, logger: Logger): Promise<number> {
  let resumed = 0;
  for (const batch of await deps.zipBatches.listActive()) {
    if (batch.status === "processing") {
      await deps.zipBatches.completeIfSettled(batch, deps.clock.now());
      continue;
    }
    if (batch.status === "uploading" && !(await deps.objects.head("originals", batch.key))) continue;
    logger.info("resuming ZIP batch", { batchId: batch.batchId, status: batch.status });
    await (batch.driveFolderId ? importDriveFolder : importZip)(deps, logger, batch.batchId);
    resumed++;
  }
  return resumed;
}

function checkZip(deps: Pick<Deps, "config">, filename: string, size: number): void {
  if (!/\.zip$/i.test(filename)) throw invalid(messages.zipInvalidName);
  if (size > deps.config.ZIP_MAX_BYTES) throw tooLarge(zipTooLargeMessage(deps.config.ZIP_MAX_BYTES));
}

async function newBatch(
  deps: Deps,
  session: SessionClaims,
  request: { eventId: number; filename: string; size: number },
): Promise<ZipBatchRecord> {
  checkZip(deps, request.filename, request.size);
  await assertCanUpload(deps, session, request.eventId);
  const batchId = deps.ids.newId();
  const now = deps.clock.now().toISOString();
  const batch: ZipBatchRecord = {
    batchId,
    eventId: request.eventId,
    filename: request.filename,
    declaredSize: request.size,
    key: zipUploadKey(batchId),
    uploadedBy: session.userId,
    ...newBatchFields,
    createdAt: now,
    updatedAt: now,
  };
  await deps.zipBatches.create(batch);
  await recordZipUpload(deps, batch);
  return batch;
}

/**
 * A ZIP the browser sends straight to storage — the way for big ones (API Gateway takes at most
 * 10 MB per request): the batch, its key and a presigned PUT for it. A multipart upload to the same
 * key works as well; extraction starts whenever the object is complete.
 */
export async function createZipBatch(
  deps: Deps,
  session: SessionClaims,
  request: { eventId: number; filename: string; size: number },
): Promise<ZipBatchCreated> {
  const batch = await newBatch(deps, session, request);
  const contentType = "application/zip";
  const url = await deps.objects.presignPut("originals", batch.key, contentType, deps.config.UPLOAD_URL_TTL_SECONDS);
  return { success: true, batchId: batch.batchId, key: batch.key, url, headers: { "Content-Type": contentType } };
}

/**
 * The spec's `POST /api/photos/upload-zip`: a ZIP small enough to travel in one request body. Its
 * central directory is read before it is stored, so a file that is no ZIP is refused at once and
 * the answer carries `totalFiles`.
 */
export async function uploadZip(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  file: { filename: string; data: Buffer },
): Promise<ZipUploadResponse> {
  checkZip(deps, file.filename, file.data.length);
  const totalFiles = await yauzl
    .fromBufferPromise(file.data, zipOptions)
    .then(countFiles)
    .catch(() => {
      throw invalid(messages.zipInvalidName);
    });
  const batch = await newBatch(deps, session, { eventId, filename: file.filename, size: file.data.length });
  await deps.objects.put("originals", batch.key, file.data, "application/zip", file.data.length);
  return { success: true, batchId: batch.batchId, totalFiles };
}

export async function getZipBatchStatus(
  deps: Deps,
  session: SessionClaims,
  batchId: string,
): Promise<ZipBatchStatusResponse> {
  const batch = await deps.zipBatches.get(batchId);
  if (!batch) throw notFound(messages.zipNotFound);
  await assertCanUpload(deps, session, batch.eventId);
  return {
    success: true,
    batchId: batch.batchId,
    eventId: batch.eventId,
    status: batch.status,
    totalFiles: batch.totalFiles,
    extractedFiles: batch.extractedFiles,
    processedFiles: batch.processedFiles,
    skippedFiles: batch.skippedFiles,
    skipped: batch.skipped,
    error: batch.error,
  };
}
