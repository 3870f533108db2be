import type { DownloadPhoto } from "@dorsal/shared";
import type { PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";
import { publicFilename, toPhotoDto } from "./photo-view";

/**
 * How long the signed URL behind a counted download lives: long enough for the browser to follow
 * the 302 and start reading, short enough that a copied URL is useless soon after.
 */
export const originalDownloadTtlSeconds = 120;

/** A short-lived signed URL of the clean original (CloudFront-signed in AWS, presigned locally). */
export function signedOriginalUrl(deps: Pick<Deps, "urls">, photo: Pick<PhotoRecord, "originalKey">): Promise<string> {
  return deps.urls.signedGetUrl("originals", photo.originalKey, originalDownloadTtlSeconds);
}

/**
 * The photos a grant (a paid sale, a download code) lets its holder download: the clean web copy
 * and thumbnail to preview, the grant's own download URL, and the downloads left for each photo;
 * `remainingDownloads` is the fewest left over the photos.
 */
export async function downloadablePhotos(
  deps: Pick<Deps, "urls" | "config" | "downloadCounts">,
  grant: { partition: string; maxDownloads: number; downloadUrl: (photoId: string) => string },
  photos: PhotoRecord[],
): Promise<{ photos: DownloadPhoto[]; remainingDownloads: number }> {
  const counts = await deps.downloadCounts.counts(
    grant.partition,
    photos.map((photo) => photo.id),
  );
  const listed = await Promise.all(
    photos.map(async (photo): Promise<DownloadPhoto> => {
      const view = await toPhotoDto(deps, photo);
      return {
        id: photo.id,
        filename: publicFilename(photo),
        originalFilename: photo.originalFilename,
        thumbnailUrl: view.thumbnailUrl,
        webUrl: view.webUrl,
        downloadUrl: grant.downloadUrl(photo.id),
        remainingDownloads: Math.max(0, grant.maxDownloads - (counts.get(photo.id) ?? 0)),
      };
    }),
  );
  const remainingDownloads = listed.length ? Math.min(...listed.map((photo) => photo.remainingDownloads)) : 0;
  return { photos: listed, remainingDownloads };
}
