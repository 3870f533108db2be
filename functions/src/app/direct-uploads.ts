import {
  limits,
  messages,
  type UploadSignature,
  type UploadSignRequest,
  type UploadTarget,
  type UploadTargetInput,
  zipTooLargeMessage,
} from "@dorsal/shared";
import type { MultipartRequest } from "../ports/object-store";
import type { Deps } from "./deps";
import { invalid, notFound, tooLarge } from "./errors";
import { registerUploadFile, uploadFileOf } from "./my-uploads";
import { parseOriginalKey, parseZipUploadKey } from "./storage-paths";
import type { SessionClaims } from "./tokens";
import { assertCanUpload, pendingPhoto, uploadContentType } from "./uploads";

/**
 * Uploads the browser sends straight to the object store with Uppy's `@uppy/aws-s3`, which makes
 * every S3 request itself (PutObject, or CreateMultipartUpload → UploadPart… → CompleteMultipartUpload,
 * plus ListParts to resume and AbortMultipartUpload to cancel) with URLs signed here, one request
 * at a time. The API never sees the bytes; it decides who may send what where:
 * - `startDirectUpload` is the only way to a new key: it checks the caller may upload to the
 *   event, records the pending photo (as every way in does) or takes the caller's own ZIP batch,
 *   and signs the first request;
 * - `signUploadStep` signs the later requests only for a key that is the caller's own photo or
 *   ZIP, still waiting for its bytes. S3 ties an upload id to its key, so owning the key is
 *   what it takes to touch an upload; nobody can sign parts for someone else's key.
 */

export async function startDirectUpload(
  deps: Deps,
  session: SessionClaims,
  request: UploadTargetInput,
): Promise<UploadTarget> {
  const ttl = deps.config.UPLOAD_URL_TTL_SECONDS;
  if (request.kind === "zip") {
    const batch = await ownZipBatch(deps, session, request.batchId);
    if (batch.declaredSize > deps.config.ZIP_MAX_BYTES) throw tooLarge(zipTooLargeMessage(deps.config.ZIP_MAX_BYTES));
    const contentType = "application/zip";
    const url = request.multipart
      ? await deps.objects.presignMultipart("originals", batch.key, { step: "create", contentType }, ttl)
      : await deps.objects.presignPut("originals", batch.key, contentType, ttl);
    return { key: batch.key, photoId: null, url, headers: { "Content-Type": contentType } };
  }

  if (request.size > limits.photoMaxBytes) throw tooLarge(messages.fileTooLarge);
  const contentType = uploadContentType(request);
  await assertCanUpload(deps, session, request.eventId);
  const upload = request.upload ? await uploadFileOf(deps, session, request.eventId, request.upload) : undefined;
  const photo = pendingPhoto(deps, session, request.eventId, request.filename, {
    forceDuplicates: request.forceDuplicates,
    ...(upload ? { upload } : {}),
  });
  await deps.photos.createPending(photo);
  await registerUploadFile(deps, photo);
  const url = request.multipart
    ? await deps.objects.presignMultipart("originals", photo.originalKey, { step: "create", contentType }, ttl)
    : await deps.objects.presignPut("originals", photo.originalKey, contentType, ttl);
  return { key: photo.originalKey, photoId: photo.id, url, headers: { "Content-Type": contentType } };
}

export async function signUploadStep(
  deps: Deps,
  session: SessionClaims,
  request: UploadSignRequest,
): Promise<UploadSignature> {
  await assertOwnPendingKey(deps, session, request.key);
  const step: MultipartRequest =
    request.step === "part"
      ? { step: "part", uploadId: request.uploadId, partNumber: request.partNumber }
      : { step: request.step, uploadId: request.uploadId };
  const url = await deps.objects.presignMultipart("originals", request.key, step, deps.config.UPLOAD_URL_TTL_SECONDS);
  return { url };
}

/**
 * The key is an original of a photo the caller registered and that is still pending, or the ZIP
 * of the caller's batch still uploading. Anything else is "not found": whether someone else's
 * upload exists is none of the caller's business.
 */
async function assertOwnPendingKey(deps: Deps, session: SessionClaims, key: string): Promise<void> {
  const original = parseOriginalKey(key);
  if (original) {
    const photo = await deps.photos.get(original.photoId);
    if (
      photo?.originalKey === key &&
      photo.uploadedBy === session.userId &&
      photo.processingStatus === "pending" &&
      !photo.zipBatchId
    ) {
      return;
    }
    throw notFound(messages.notFound);
  }
  const zip = parseZipUploadKey(key);
  if (zip) {
    const batch = await ownZipBatch(deps, session, zip.batchId);
    if (batch.key === key) return;
    throw notFound(messages.notFound);
  }
  throw invalid(messages.invalidRequest);
}

async function ownZipBatch(deps: Deps, session: SessionClaims, batchId: string) {
  const batch = await deps.zipBatches.get(batchId);
  if (!batch || batch.uploadedBy !== session.userId) throw notFound(messages.zipNotFound);
  // Once its bytes arrived the batch is the pipeline's: nobody may overwrite the archive. A drive
  // import's batch has no archive to send.
  if (batch.status !== "uploading" || batch.driveFolderId) throw notFound(messages.zipNotFound);
  return batch;
}
