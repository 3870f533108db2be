/**
 * Object keys follow the spec's event_configs paths (eventos/{eventId}/originales|web|miniaturas),
 * plus the public copies: muestras (watermarked), muestras-miniaturas and gratis.
 * The photo id is part of the key, so the pipeline knows which photo an object-created event is
 * about without any lookup.
 */
export const storagePaths = {
  /** Every object of an event, in either bucket, starts with this (deleting the event removes them all). */
  event: (eventId: number) => `eventos/${eventId}/`,
  original: (eventId: number, photoId: string, extension: string) =>
    `eventos/${eventId}/originales/${photoId}.${extension}`,
  web: (eventId: number, photoId: string) => `eventos/${eventId}/web/${photoId}.jpg`,
  thumbnail: (eventId: number, photoId: string) => `eventos/${eventId}/miniaturas/${photoId}.jpg`,
  /** The watermarked preview the public sees of a paid event's photo, and its thumbnail. */
  preview: (eventId: number, photoId: string) => `eventos/${eventId}/muestras/${photoId}.jpg`,
  previewThumbnail: (eventId: number, photoId: string) => `eventos/${eventId}/muestras-miniaturas/${photoId}.jpg`,
  /** The copy with the GRATIS/DEMO overlay the public sees while the event's photos are free. */
  gratis: (eventId: number, photoId: string) => `eventos/${eventId}/gratis/${photoId}.jpg`,
  /** A HEIC original decoded once into an upright JPEG (capped size) that the text and face engines can read. */
  working: (eventId: number, photoId: string) => `eventos/${eventId}/trabajo/${photoId}.jpg`,
};

/**
 * Rekognition's face collections of a deployment (selfie search, one per event:
 * `{table}-faces-{eventId}`), named after its table so two deployments in one account never share
 * one; infra scopes the grants to this prefix.
 */
export const faceCollectionPrefix = (tableName: string) => `${tableName}-faces-`;

/** Uploaded ZIPs wait here (expired by a lifecycle rule) until they are extracted into originals. */
export const zipUploadPrefix = "uploads/zips/";
export const zipUploadKey = (batchId: string) => `${zipUploadPrefix}${batchId}.zip`;

export function parseZipUploadKey(key: string): { batchId: string } | undefined {
  const match = /^uploads\/zips\/([a-z0-9]+)\.zip$/.exec(key);
  return match?.[1] ? { batchId: match[1] } : undefined;
}

/**
 * A drive import's start: a small object beside the uploaded ZIPs, so the same storage notification
 * and the same function (unzip) that extract a ZIP run the import in the background.
 */
export const driveImportKey = (batchId: string) => `${zipUploadPrefix}${batchId}.drive`;

export function parseDriveImportKey(key: string): { batchId: string } | undefined {
  const match = /^uploads\/zips\/([a-z0-9]+)\.drive$/.exec(key);
  return match?.[1] ? { batchId: match[1] } : undefined;
}

/**
 * ZIPs of originals built for a download link or a code, in the originals bucket: served like
 * originals (signed, as attachments) and expired a day later by a lifecycle rule (locally, by the
 * runtime's sweep). The day, then a random folder that makes the key unguessable, then the name
 * the browser saves the file under.
 */
export const downloadZipPrefix = "descargas/";
export const downloadZipKey = (day: string, folder: string, filename: string) =>
  `${downloadZipPrefix}${day}/${folder}/${filename}`;

const originalPattern = /^eventos\/(\d+)\/originales\/([a-z0-9]+)\.([a-z0-9]{1,5})$/;

export function parseOriginalKey(key: string): { eventId: number; photoId: string } | undefined {
  const match = originalPattern.exec(key);
  if (!match?.[1] || !match[2]) return undefined;
  return { eventId: Number(match[1]), photoId: match[2] };
}

/** A safe, lowercase extension from a user-supplied file name (`jpg` when there is none). */
export function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(filename);
  return match?.[1]?.toLowerCase() ?? "jpg";
}
