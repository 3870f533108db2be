import { createHash } from "node:crypto";
import {
  type AcceptedImageType,
  imageContentType,
  limits,
  messages,
  type PresignResponse,
  type UploadResponse,
} from "@dorsal/shared";
import { newPhotoFields, type PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";
import { forbidden, invalid, notFound, unsupported } from "./errors";
import { contentTypes, sniffImageType } from "./image-types";
import { toPhotoDto } from "./photo-view";
import { extensionOf, storagePaths } from "./storage-paths";
import type { SessionClaims } from "./tokens";

/**
 * Who may upload where (and follow that event's processing): admins to any event; photographers
 * to the events assigned to them (spec §3 photographer_event_assignments) — stricter than the
 * spec's client, which lets them pick any event: the server decides. The account and its
 * assignments come from one consistent query, so a deleted account, a role changed away from
 * photographer or a removed assignment is refused from the next request on.
 */
export async function assertCanUpload(deps: Deps, session: SessionClaims, eventId: number): Promise<void> {
  const [event, access] = await Promise.all([
    deps.events.get(eventId),
    session.role === "photographer" ? deps.assignments.accountWithEvents(session.userId) : undefined,
  ]);
  if (!event) throw notFound(messages.eventNotFound);
  if (session.role === "admin") return;
  if (access?.user?.role === "photographer" && access.eventIds.includes(eventId)) return;
  throw forbidden(messages.forbidden);
}

/**
 * The type a direct upload is signed for, and so stored as: only the image types the product
 * handles (by the declared type, else the extension), never what the client claims otherwise.
 */
export function uploadContentType(file: { filename: string; contentType: string }): AcceptedImageType {
  const type = imageContentType({ name: file.filename, type: file.contentType });
  if (!type) throw unsupported(`${file.filename}: ${messages.unsupportedImage}`);
  return type;
}

/**
 * The record of a photo about to be stored, written before its bytes so the pipeline knows who sent
 * what under which name. Every way in (presigned, multipart, ZIP) makes it here.
 */
export function pendingPhoto(
  deps: Pick<Deps, "ids" | "clock">,
  uploader: Pick<SessionClaims, "userId">,
  eventId: number,
  filename: string,
  options: {
    forceDuplicates?: boolean | undefined;
    id?: string;
    zip?: { batchId: string; entry: number };
    upload?: { uploadId: string; uploadFile: string };
  } = {},
): PhotoRecord {
  const id = options.id ?? deps.ids.newId();
  return {
    id,
    eventId,
    filename: `${id}.${extensionOf(filename)}`,
    originalFilename: filename,
    originalKey: storagePaths.original(eventId, id, extensionOf(filename)),
    ...newPhotoFields,
    uploadedAt: deps.clock.now().toISOString(),
    uploadedBy: uploader.userId,
    // The pipeline hashes the original and ends a copy of a photo the event has as `duplicate`, unless told not to.
    ...(options.forceDuplicates ? { forceDuplicates: true } : {}),
    ...(options.zip ? { zipBatchId: options.zip.batchId, zipEntry: options.zip.entry } : {}),
    ...(options.upload ?? {}),
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
  const types = request.files.map(uploadContentType);
  await assertCanUpload(deps, session, request.eventId);
  const uploads = await Promise.all(
    request.files.map(async (file, index) => {
      const contentType = types[index] as AcceptedImageType;
      const photo = pendingPhoto(deps, session, request.eventId, file.filename, {
        forceDuplicates: request.forceDuplicates,
      });
      await deps.photos.createPending(photo);
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
  options: { forceDuplicates?: boolean; sessionId?: string | undefined } = {},
): Promise<UploadResponse> {
  if (files.length === 0) throw invalid(messages.selectPhoto);
  await assertCanUpload(deps, session, eventId);
  const sessionId = options.sessionId ?? deps.ids.newId();
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
    const photo = pendingPhoto(deps, session, eventId, file.filename, {
      forceDuplicates: options.forceDuplicates,
      id: sessionPhotoId(session, sessionId, eventId, file),
    });
    if (!(await deps.photos.createPending(photo))) {
      // Sent again under the same session (a resumed upload): stored once, reported as received.
      const earlier = await deps.photos.get(photo.id);
      if (earlier && (await deps.objects.head("originals", earlier.originalKey))) {
        photos.push(earlier);
        continue;
      }
    }
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
    sessionId,
  };
}

/**
 * A photo's id within an upload session: the same uploader, session, event, name and bytes give
 * the same id, so a resumed session finds what already arrived instead of storing it twice.
 */
function sessionPhotoId(
  session: Pick<SessionClaims, "userId">,
  sessionId: string,
  eventId: number,
  file: UploadedFile,
): string {
  const content = createHash("sha256").update(file.data).digest("hex");
  return createHash("sha256")
    .update(`${session.userId}\n${sessionId}\n${eventId}\n${file.filename}\n${content}`)
    .digest("hex")
    .slice(0, 32);
}
