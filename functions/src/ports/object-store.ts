import type { Readable } from "node:stream";

export type BucketRole = "originals" | "derived";

export interface StoredObjectInfo {
  size: number;
  contentType: string | undefined;
  metadata: Record<string, string>;
}

/**
 * One request of an S3 multipart upload that the browser makes itself, with a URL signed here:
 * the object store sees the bytes, the API only decides who may send them.
 */
export type MultipartRequest =
  | { step: "create"; contentType: string }
  | { step: "part"; uploadId: string; partNumber: number }
  | { step: "list"; uploadId: string }
  | { step: "complete"; uploadId: string }
  | { step: "abort"; uploadId: string };

export interface ObjectStore {
  put(bucket: BucketRole, key: string, body: Buffer | Readable, contentType: string, size?: number): Promise<void>;
  getBuffer(bucket: BucketRole, key: string): Promise<Buffer>;
  /** Reads the first bytes only, to identify a file by its magic numbers without loading it. */
  getRange(bucket: BucketRole, key: string, start: number, endInclusive: number): Promise<Buffer>;
  /** The object as a stream, for reading a large file (hashing an original) without holding it whole. */
  getStream(bucket: BucketRole, key: string): Promise<Readable>;
  /** One byte range as a stream: how a ZIP's entries are read in place, never the archive whole. */
  getRangeStream(bucket: BucketRole, key: string, start: number, endInclusive: number): Promise<Readable>;
  head(bucket: BucketRole, key: string): Promise<StoredObjectInfo | undefined>;
  delete(bucket: BucketRole, key: string): Promise<void>;
  /**
   * Deletes every object whose key starts with `prefix`, a page (up to 1000) at a time; returns how
   * many there were. With `maxPages`, stops after that many pages: background work that must end
   * within a time slice calls it again until it returns 0.
   */
  deletePrefix(bucket: BucketRole, prefix: string, options?: { maxPages?: number }): Promise<number>;
  /** One page (up to 1000) of the objects under `prefix`; pass the returned cursor back for the next. */
  list(
    bucket: BucketRole,
    prefix: string,
    cursor?: string,
  ): Promise<{ objects: { key: string; size: number }[]; cursor?: string }>;
  /** A URL the browser can PUT the file to directly, valid for `expiresInSeconds`. */
  presignPut(bucket: BucketRole, key: string, contentType: string, expiresInSeconds: number): Promise<string>;
  /** A URL for one multipart-upload request of `key`, valid for `expiresInSeconds`. */
  presignMultipart(
    bucket: BucketRole,
    key: string,
    request: MultipartRequest,
    expiresInSeconds: number,
  ): Promise<string>;
  /** The bucket name the runtime knows this role by (object-created events carry names, not roles). */
  bucketName(bucket: BucketRole): string;
}
