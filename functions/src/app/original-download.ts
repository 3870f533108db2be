import type { PhotoRecord } from "../data/photos";
import type { Deps } from "./deps";

/**
 * How long the signed URL behind a counted download lives: long enough for the browser to follow
 * the 302 and start reading, short enough that a copied URL is useless soon after.
 */
export const originalDownloadTtlSeconds = 120;

/** A short-lived signed URL of the clean original (CloudFront-signed in AWS, presigned locally). */
export function signedOriginalUrl(deps: Pick<Deps, "urls">, photo: Pick<PhotoRecord, "originalKey">): Promise<string> {
  return deps.urls.signedGetUrl("originals", photo.originalKey, originalDownloadTtlSeconds);
}
