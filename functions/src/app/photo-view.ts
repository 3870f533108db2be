import type { PhotoDto } from "@dorsal/shared";
import type { PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";

/** The API's view of a photo: the spec's fields plus short-lived URLs that load the images directly. */
export async function toPhotoDto(deps: Pick<Deps, "urls" | "config">, photo: PhotoRecord): Promise<PhotoDto> {
  const ttl = deps.config.IMAGE_URL_TTL_SECONDS;
  const [thumbnailUrl, webUrl] = await Promise.all([
    photo.thumbnailKey ? deps.urls.signedGetUrl("derived", photo.thumbnailKey, ttl) : null,
    photo.webKey ? deps.urls.signedGetUrl("derived", photo.webKey, ttl) : null,
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
  };
}
