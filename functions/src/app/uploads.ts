import { limits, messages, type PresignResponse, type UploadResponse } from "@dorsal/shared";
import { newPhotoFields, type PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";
import { forbidden, invalid, notFound } from "./errors";
import { contentTypes, sniffImageType } from "./image-types";
import { toPhotoDto } from "./photo-view";
import { extensionOf, storagePaths } from "./storage-paths";
import type { SessionClaims } from "./tokens";

/**
 * Who may upload where: admins to any event; photographers only to the event assigned to them
 * (stricter than the spec's client, which lets them pick any event — the server decides).
 */
async function assertCanUpload(deps: Deps, session: SessionClaims, eventId: number): Promise<void> {
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  if (session.role === "admin") return;
  if (session.role === "photographer") {
    const user = await deps.users.findByEmail(session.email);
    if (user?.assignedEventId === eventId) return;
  }
  throw forbidden(messages.forbidden);
}

function pendingPhoto(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  filename: string,
  forceDuplicates = false,
): PhotoRecord {
  const id = deps.ids.newId();
  return {
    id,
    eventId,
    filename: `${id}.${extensionOf(filename)}`,
    originalFilename: filename,
    originalKey: storagePaths.original(eventId, id, extensionOf(filename)),
    ...newPhotoFields,
    uploadedAt: deps.clock.now().toISOString(),
    uploadedBy: session.userId,
    // The pipeline hashes the original and ends a copy of a photo the event has as `duplicate`, unless told not to.
    ...(forceDuplicates ? { forceDuplicates: true } : {}),
  };
}

/**
 * Prepares direct-to-storage uploads (the path the browser uses):
 * 1. check the event exists and the caller may upload to it;
 * 2. record each photo as pending, so the pipeline knows who sent what under which name;
 * 3. hand back one presigned PUT per file. The pipeline re-checks size and type on arrival,
 *    because a presigned URL cannot stop a client from sending something else.
 */
export async function presignUploads(
  deps: Deps,
  session: SessionClaims,
  request: {
    eventId: number;
    files: { filename: string; contentType: string; size: number }[];
    forceDuplicates?: boolean | undefined;
  },
): Promise<PresignResponse> {
  await assertCanUpload(deps, session, request.eventId);
  const uploads = await Promise.all(
    request.files.map(async (file) => {
      const photo = pendingPhoto(deps, session, request.eventId, file.filename, request.forceDuplicates);
      await deps.photos.createPending(photo);
      const contentType = file.contentType || "application/octet-stream";
      const url = await deps.objects.presignPut(
        "originals",
        photo.originalKey,
        contentType,
        deps.config.UPLOAD_URL_TTL_SECONDS,
      );
      return { photoId: photo.id, filename: file.filename, url, headers: { "Content-Type": contentType } };
    }),
  );
  return { uploads };
}

export interface UploadedFile {
  filename: string;
  data: Buffer;
}

/**
 * The spec's multipart upload (small files, scripts, the mobile diagnostic): each file is checked
 * by size and magic bytes here, stored as an original, and then takes the same pipeline path as a
 * presigned upload. A bad file fails alone; the others still go through.
 */
export async function uploadFiles(
  deps: Deps,
  session: SessionClaims,
  eventId: number,
  files: UploadedFile[],
  options: { forceDuplicates?: boolean } = {},
): Promise<UploadResponse> {
  if (files.length === 0) throw invalid(messages.selectPhoto);
  await assertCanUpload(deps, session, eventId);
  const errors: string[] = [];
  const photos: PhotoRecord[] = [];
  for (const file of files) {
    const type = sniffImageType(file.data.subarray(0, 32));
    if (file.data.length > limits.photoMaxBytes) {
      errors.push(`${file.filename}: ${messages.fileTooLarge}`);
      continue;
    }
    if (!type) {
      errors.push(`${file.filename}: ${messages.unsupportedImage}`);
      continue;
    }
    const photo = pendingPhoto(deps, session, eventId, file.filename, options.forceDuplicates);
    await deps.photos.createPending(photo);
    await deps.objects.put("originals", photo.originalKey, file.data, contentTypes[type], file.data.length);
    photos.push(photo);
  }
  const uploaded = photos.length;
  return {
    message: uploaded > 0 ? `${uploaded} foto(s) recibida(s); procesando` : messages.uploadFailed,
    uploaded,
    failed: errors.length,
    photos: await Promise.all(photos.map((photo) => toPhotoDto(deps, photo))),
    performance: { successful: uploaded, failed: errors.length, duplicates: 0, errors },
  };
}
