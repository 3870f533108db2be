import type { PhotoDto, PreviewKind } from "@dorsal/shared";
import type { EventRecord } from "../data/events";
import type { PhotoRecord, PhotoView } from "../data/photos";
import type { Deps } from "./deps";

type ViewDeps = Pick<Deps, "urls" | "config">;

/**
 * The API's view of a photo for those who may see it clean (admins, photographers): the spec's
 * fields plus short-lived URLs that load the images directly.
 */
export function toPhotoDto(deps: ViewDeps, photo: PhotoView): Promise<PhotoDto> {
  return photoView(deps, photo, "clean", { web: photo.webKey, thumbnail: photo.thumbnailKey });
}

/**
 * A duplicate in an admin list: it has no images of its own (it was never processed), so it shows
 * those of the photo it copies — the same bytes — and names that photo.
 */
export async function toDuplicateDto(
  deps: ViewDeps,
  photo: PhotoRecord,
  holder: PhotoRecord | undefined,
): Promise<PhotoDto> {
  const view = await photoView(deps, photo, "clean", {
    web: holder?.webKey ?? null,
    thumbnail: holder?.thumbnailKey ?? null,
  });
  return { ...view, duplicateOf: holder ? { id: holder.id, originalFilename: holder.originalFilename } : null };
}

/** Which copy the public sees of an event's photos: never the clean one. */
export const publicPreviewKind = (event: Pick<EventRecord, "freePhotosEnabled">): PreviewKind =>
  event.freePhotosEnabled ? "gratis" : "watermarked";

/**
 * The public view (search): a paid event's photos as the watermarked preview and thumbnail; a free
 * event's as the GRATIS/DEMO copy with the plain thumbnail (the photo is given away, and the small
 * grid stays easy to scan). A photo without its public copies shows no image rather than the clean one.
 */
export async function toPublicPhotoDto(
  deps: ViewDeps,
  photo: PhotoView,
  event: Pick<EventRecord, "freePhotosEnabled">,
): Promise<PhotoDto> {
  const kind = publicPreviewKind(event);
  const keys =
    kind === "gratis"
      ? { web: photo.gratisKey ?? null, thumbnail: photo.gratisKey ? photo.thumbnailKey : null }
      : { web: photo.previewKey ?? null, thumbnail: photo.previewThumbnailKey ?? null };
  const view = await photoView(deps, photo, kind, keys);
  return { ...view, filename: publicFilename(photo) };
}

/**
 * The stored name is the last part of the original's storage key: the public gets the name the
 * photographer gave the file instead. (The store answers only signed requests anyway.)
 */
export const publicFilename = (photo: Pick<PhotoRecord, "originalFilename">): string => photo.originalFilename;

async function photoView(
  deps: ViewDeps,
  photo: PhotoView,
  previewKind: PreviewKind,
  keys: { web: string | null; thumbnail: string | null },
): Promise<PhotoDto> {
  const ttl = deps.config.IMAGE_URL_TTL_SECONDS;
  const [thumbnailUrl, webUrl] = await Promise.all([
    keys.thumbnail ? deps.urls.signedGetUrl("derived", keys.thumbnail, ttl) : null,
    keys.web ? deps.urls.signedGetUrl("derived", keys.web, ttl) : null,
  ]);
  return {
    id: photo.id,
    eventId: photo.eventId,
    filename: photo.filename,
    originalFilename: photo.originalFilename,
    detectedDorsals: photo.detectedDorsals,
    bibs: photo.bibs,
    manualBibs: photo.manualBibs ?? { added: [], removed: [] },
    processed: photo.processed,
    processingStatus: photo.processingStatus,
    failureReason: photo.failureReason,
    uploadedAt: photo.uploadedAt,
    processedAt: photo.processedAt,
    thumbnailUrl,
    webUrl,
    previewKind,
  };
}

type UploadOrdered = Pick<PhotoRecord, "uploadedAt" | "originalFilename" | "id">;

/**
 * Oldest upload first. A batch's photos share their upload instant to the millisecond, so the
 * photographer's own file names (a camera's sequence) come next, and the id last: the same order
 * on every request, never the table's read order, which pages and ties depend on.
 */
export const inUploadOrder = (a: UploadOrdered, b: UploadOrdered): number =>
  a.uploadedAt.localeCompare(b.uploadedAt) ||
  a.originalFilename.localeCompare(b.originalFilename) ||
  a.id.localeCompare(b.id);
