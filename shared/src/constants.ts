/** Business constants of spec §9 that both the server and the browser rely on. */
export const limits = {
  photoMaxBytes: 50 * 1024 * 1024,
  zipMaxBytes: 2 * 1024 * 1024 * 1024,
  zipMaxPhotos: 5000,
  passwordMinLength: 6,
  bibGridPageSize: 100,
  photosPreviewCount: 12,
} as const;

/** Image types accepted for upload (spec §5); the server decides by magic bytes, not by this list. */
export const acceptedImageTypes = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/tiff",
  "image/bmp",
  "image/gif",
  "image/heic",
  "image/heif",
] as const;

/** Defaults of spec §3 `event_configs` that drive bib extraction. */
export const defaultEventConfig = {
  ocrConfidenceThreshold: 95,
  maxDorsalsPerPhoto: 10,
  dorsalSizeThreshold: 0.15,
  enableMultiDorsalSupport: true,
  signedUrlExpirySeconds: 86400,
} as const;

export const eventStatuses = ["active", "processing", "completed"] as const;
export const processingStatuses = ["pending", "processing", "successful", "failed", "duplicate"] as const;
