import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Readable } from "node:stream";
import type S3rver from "s3rver";
import type { BucketRole, ObjectStore, StoredObjectInfo } from "../src/ports/object-store";

/**
 * The runtime's own reads and writes of stored objects, made on s3rver's file store in this
 * process rather than through the SDK, request signing and HTTP to the same process. The store is
 * the one s3rver serves (hardened in s3rver-store.ts: atomic writes, deletes that keep a busy
 * folder), so a browser reaching the bytes through a signed URL sees exactly these objects; an
 * original written here is announced with the same object-created event s3rver sends for a PUT,
 * as S3 notifies the pipeline on AWS. URLs for the browser are still presigned by `presigning`.
 */
interface StoredMetadata {
  "content-type"?: string;
  "content-length"?: number | string;
  [name: string]: unknown;
}
interface FileStore {
  getBucketPath(bucket: string): string;
  getResourcePath(bucket: string, key: string, resource: string): string;
  getMetadata(bucket: string, key: string): Promise<StoredMetadata>;
  putObject(object: object): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  listObjects(
    bucket: string,
    options: { prefix: string; startAfter?: string; maxKeys: number },
  ): Promise<{ objects: { key: string; size: number }[]; isTruncated: boolean }>;
}

const require = createRequire(import.meta.url);
type S3ObjectConstructor = new (bucket: string, key: string, content: unknown, metadata: object) => object;
const S3Object = require("s3rver/lib/models/object") as S3ObjectConstructor;
const S3Event = require("s3rver/lib/models/event") as new (
  eventData: object,
  request: { reqHeaders: Record<string, string>; sourceIp: string },
) => object;

const listPageSize = 1000;
const userMetadataPrefix = "x-amz-meta-";

export function createInProcessObjectStore(options: {
  s3rver: S3rver;
  buckets: Record<BucketRole, string>;
  presigning: ObjectStore;
}): ObjectStore {
  const { buckets, presigning } = options;
  const store = (options.s3rver as unknown as { store: FileStore }).store;
  const emitter = options.s3rver as unknown as { emit(event: string, payload: object): void };

  /** The object's file; a key that would climb out of its bucket's folder never reaches the disk. */
  const fileOf = (bucket: BucketRole, key: string) => {
    const file = store.getResourcePath(buckets[bucket], key, "object");
    if (!file.startsWith(`${store.getBucketPath(buckets[bucket])}${path.sep}`)) {
      throw Object.assign(new Error(`Invalid key ${key}`), { name: "InvalidURI" });
    }
    return file;
  };
  /** As the SDK reports a missing object, so callers' handling holds on both paths. */
  const missing = (bucket: BucketRole, key: string, error: unknown) =>
    (error as NodeJS.ErrnoException).code === "ENOENT"
      ? Object.assign(new Error(`The specified key does not exist: ${buckets[bucket]}/${key}`), {
          name: "NoSuchKey",
          cause: error,
        })
      : error;
  const stream = async (bucket: BucketRole, key: string, range?: { start: number; end: number }) => {
    const file = fileOf(bucket, key);
    return new Promise<Readable>((resolve, reject) => {
      const opened = createReadStream(file, range);
      opened.once("error", (error) => reject(missing(bucket, key, error)));
      opened.once("open", () => resolve(opened));
    });
  };

  return {
    bucketName: (bucket) => buckets[bucket],

    async put(bucket, key, body, contentType) {
      fileOf(bucket, key);
      const object = new S3Object(buckets[bucket], key, body, { "content-type": contentType });
      const { size, md5 } = await store.putObject(object);
      // On AWS only the originals bucket notifies the pipeline; derived copies announce nothing.
      if (bucket !== "originals") return;
      const created = new S3Object(buckets[bucket], key, null, {
        "content-length": size,
        etag: JSON.stringify(md5),
      });
      emitter.emit(
        "event",
        new S3Event(
          { bucket: buckets[bucket], eventType: "Put", S3Item: created },
          { reqHeaders: { host: "localhost" }, sourceIp: "127.0.0.1" },
        ),
      );
    },

    getBuffer: (bucket, key) =>
      readFile(fileOf(bucket, key)).catch((error: unknown) => Promise.reject(missing(bucket, key, error))),

    async getRange(bucket, key, start, endInclusive) {
      const file = await open(fileOf(bucket, key), "r").catch((error: unknown) =>
        Promise.reject(missing(bucket, key, error)),
      );
      try {
        const bytes = Buffer.alloc(Math.max(0, endInclusive - start + 1));
        const { bytesRead } = await file.read(bytes, 0, bytes.length, start);
        return bytes.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },

    getStream: (bucket, key) => stream(bucket, key),

    getRangeStream: (bucket, key, start, endInclusive) => stream(bucket, key, { start, end: endInclusive }),

    async head(bucket, key): Promise<StoredObjectInfo | undefined> {
      fileOf(bucket, key);
      try {
        const metadata = await store.getMetadata(buckets[bucket], key);
        return {
          size: Number(metadata["content-length"] ?? 0),
          contentType: metadata["content-type"],
          metadata: Object.fromEntries(
            Object.entries(metadata)
              .filter(([name]) => name.startsWith(userMetadataPrefix))
              .map(([name, value]) => [name.slice(userMetadataPrefix.length), String(value)]),
          ),
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },

    async delete(bucket, key) {
      fileOf(bucket, key);
      await store.deleteObject(buckets[bucket], key);
    },

    async deletePrefix(bucket, prefix, options) {
      let deleted = 0;
      for (let pages = 1; ; pages += 1) {
        const page = await store.listObjects(buckets[bucket], { prefix, maxKeys: listPageSize });
        for (const object of page.objects) await store.deleteObject(buckets[bucket], object.key);
        deleted += page.objects.length;
        if (!page.isTruncated || pages === options?.maxPages) return deleted;
      }
    },

    async list(bucket, prefix, cursor) {
      const page = await store.listObjects(buckets[bucket], {
        prefix,
        ...(cursor ? { startAfter: cursor } : {}),
        maxKeys: listPageSize,
      });
      const objects = page.objects.map((object) => ({ key: object.key, size: object.size }));
      return { objects, ...(page.isTruncated && objects.length > 0 ? { cursor: objects.at(-1)?.key } : {}) };
    },

    presignPut: (bucket, key, contentType, expiresInSeconds) =>
      presigning.presignPut(bucket, key, contentType, expiresInSeconds),
    presignMultipart: (bucket, key, request, expiresInSeconds) =>
      presigning.presignMultipart(bucket, key, request, expiresInSeconds),
  };
}
