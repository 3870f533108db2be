/**
 * How the browser sends photos (spec §9): 5 at a time on a desktop, 2 on a phone, whose uplink a
 * wider fan-out only starves; big files go in resumable parts, small ones in one request.
 */
export const concurrentUploads = { desktop: 5, phone: 2 } as const;

/**
 * Above this a file goes as an S3 multipart upload (5 MB parts, resumable part by part); below it
 * one presigned PUT is cheaper than the three extra requests a multipart upload costs.
 */
export const multipartThresholdBytes = 10 * 1024 * 1024;

/** S3's smallest part but the last. */
export const partSizeBytes = 5 * 1024 * 1024;

export function uploadsAtOnce(phone: boolean): number {
  return phone ? concurrentUploads.phone : concurrentUploads.desktop;
}

export function usesMultipart(size: number): boolean {
  return size > multipartThresholdBytes;
}

/** A phone or tablet: what the spec's mobile behaviours (compression, camera button, 2 at a time) are for. */
export function isPhone(userAgent: string, coarsePointer: boolean): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(userAgent) || (coarsePointer && /Macintosh/.test(userAgent));
}

export function detectPhone(): boolean {
  if (typeof navigator === "undefined") return false;
  const coarse = typeof window !== "undefined" && window.matchMedia?.("(pointer: coarse)").matches === true;
  return isPhone(navigator.userAgent, coarse);
}
