import { createHash } from "node:crypto";
import { limits, type ZipSkippedEntry, zipSkipReasons } from "@dorsal/shared";
import { driveMessages } from "@dorsal/shared/drive";
import type { ZipBatchRecord } from "../data/zip-batches";
import type { Logger } from "../logger";
import { type Drive, DriveAuthError, type DriveFile } from "../ports/drive";
import type { Deps } from "./deps";
import { accessTokenOf } from "./drive";
import { contentTypes } from "./image-types";
import { pendingPhoto } from "./uploads";
import { alreadyStored, type ZipExtractionDeps } from "./zip-extraction";
import { classifyEntryContent, splitHead } from "./zip-reading";

export type DriveImportDeps = ZipExtractionDeps & Pick<Deps, "drive" | "drives" | "logger">;

/** Files brought at once: enough to hide the provider's latency, few enough to keep memory flat. */
const fileConcurrency = 4;
/** Bytes read from the start of a file to tell an image from anything else. */
const headLength = 512;

/**
 * The photo a drive file becomes in an event: the same id whichever import brings it, so the record
 * itself says the file was imported, and no second import (nor a resumed one) brings it twice.
 */
export const drivePhotoId = (eventId: number, fileId: string) =>
  `d${createHash("sha256").update(`${eventId}\n${fileId}`).digest("hex").slice(0, 31)}`;

/**
 * Runs a drive import's batch (started by its object under uploads/zips/, or by a restart): each
 * image of the folder is streamed from the drive into the event's originals under a pending photo
 * record, exactly as a ZIP's entries are, and takes the photo pipeline from there (duplicates,
 * HEIC, limits). Idempotent: a file whose photo exists is not brought again — counted as this
 * batch's when this batch brought it (a resumed run), skipped as already imported otherwise.
 */
export async function importDriveFolder(
  deps: DriveImportDeps,
  logger: Logger,
  batchId: string,
): Promise<ZipBatchRecord | undefined> {
  const batch = await deps.zipBatches.get(batchId);
  if (!batch?.driveFolderId) return batch;
  const now = () => deps.clock.now();
  const started = await deps.zipBatches.startExtracting(batchId, now());
  if (!started) return batch;
  try {
    const access = await accessTokenOf(deps, batch.uploadedBy);
    if (!access) return await deps.zipBatches.fail(batchId, driveMessages.authExpired, now());
    const files = await access.api.images(access.accessToken, batch.driveFolderId);
    await deps.zipBatches.reportProgress(batchId, { totalFiles: files.length }, now());

    let extracted = 0;
    const skipped: ZipSkippedEntry[] = [];
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const index = next++;
        const file = files[index] as DriveFile;
        const reason = await importFile(deps, access, batch, file, index);
        if (reason) skipped.push({ name: file.name.slice(0, 255), reason });
        else extracted++;
      }
    };
    await Promise.all(Array.from({ length: fileConcurrency }, worker));

    const finished = await deps.zipBatches.finishExtraction(
      batchId,
      {
        totalFiles: files.length,
        extractedFiles: extracted,
        skippedFiles: skipped.length,
        skipped: skipped.slice(0, 200),
      },
      now(),
    );
    await deps.objects.delete("originals", batch.key);
    return finished ? deps.zipBatches.completeIfSettled(finished, now()) : deps.zipBatches.get(batchId);
  } catch (error) {
    logger.error("drive import failed", { batchId, error: error instanceof Error ? error.message : String(error) });
    const reason = error instanceof DriveAuthError ? driveMessages.authExpired : driveMessages.importError;
    return deps.zipBatches.fail(batchId, reason, now());
  }
}

/** One file into the event's originals; the reason it was skipped, or undefined when it is the batch's. */
async function importFile(
  deps: DriveImportDeps,
  access: { api: Drive; accessToken: string },
  batch: ZipBatchRecord,
  file: DriveFile,
  index: number,
): Promise<string | undefined> {
  const size = Number(file.size);
  if (size > limits.photoMaxBytes) return zipSkipReasons.tooLarge;
  const photoId = drivePhotoId(batch.eventId, file.id);
  const existing = await deps.photos.get(photoId);
  if (existing && existing.zipBatchId !== batch.batchId) return driveMessages.alreadyImported;
  if (existing && (await alreadyStored(deps, existing, size))) return undefined;

  const stream = await access.api.download(access.accessToken, file.id);
  const split = await splitHead(stream, headLength);
  const verdict = classifyEntryContent(split.head);
  if ("reason" in verdict) {
    stream.destroy();
    return verdict.reason;
  }
  const photo = pendingPhoto(deps, { userId: batch.uploadedBy }, batch.eventId, file.name, {
    id: photoId,
    zip: { batchId: batch.batchId, entry: index },
  });
  await deps.photos.createPending(photo);
  await deps.objects.put("originals", photo.originalKey, split.body(), contentTypes[verdict.imageType], size);
  return undefined;
}
