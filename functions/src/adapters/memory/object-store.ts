import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import type { BucketRole, ObjectStore } from "../../ports/object-store";

interface StoredObject {
  body: Buffer;
  contentType: string;
}

/**
 * The ObjectStore port held in memory: for measuring the pipeline's own cost with no storage server
 * in between, and for use-case tests. It hands out no URLs: nothing outside the process could
 * reach it, so presigning refuses rather than return an address that leads nowhere.
 */
export function createMemoryObjectStore(): ObjectStore {
  const buckets: Record<BucketRole, Map<string, StoredObject>> = { originals: new Map(), derived: new Map() };
  const read = (bucket: BucketRole, key: string) => {
    const object = buckets[bucket].get(key);
    if (!object) throw Object.assign(new Error(`NoSuchKey: ${bucket}/${key}`), { name: "NoSuchKey" });
    return object;
  };
  const slice = (bucket: BucketRole, key: string, start: number, endInclusive: number) =>
    read(bucket, key).body.subarray(start, endInclusive + 1);
  const noUrls = () => Promise.reject(new Error("the in-memory object store cannot be reached by URL"));

  return {
    bucketName: (bucket) => bucket,
    async put(bucket, key, body, contentType) {
      const bytes = Buffer.isBuffer(body) ? Buffer.from(body) : await buffer(body);
      buckets[bucket].set(key, { body: bytes, contentType });
    },
    getBuffer: async (bucket, key) => Buffer.from(read(bucket, key).body),
    getRange: async (bucket, key, start, endInclusive) => Buffer.from(slice(bucket, key, start, endInclusive)),
    getStream: async (bucket, key) => Readable.from([read(bucket, key).body]),
    getRangeStream: async (bucket, key, start, endInclusive) =>
      Readable.from([slice(bucket, key, start, endInclusive)]),
    async head(bucket, key) {
      const object = buckets[bucket].get(key);
      return object ? { size: object.body.length, contentType: object.contentType, metadata: {} } : undefined;
    },
    async delete(bucket, key) {
      buckets[bucket].delete(key);
    },
    async deletePrefix(bucket, prefix, options) {
      const keys = [...buckets[bucket].keys()]
        .filter((key) => key.startsWith(prefix))
        .sort()
        .slice(0, options?.maxPages === undefined ? undefined : options.maxPages * 1000);
      for (const key of keys) buckets[bucket].delete(key);
      return keys.length;
    },
    async list(bucket, prefix, cursor) {
      const keys = [...buckets[bucket].keys()]
        .filter((key) => key.startsWith(prefix) && (cursor === undefined || key > cursor))
        .sort();
      const page = keys.slice(0, 1000);
      return {
        objects: page.map((key) => ({ key, size: read(bucket, key).body.length })),
        ...(keys.length > page.length ? { cursor: page.at(-1) } : {}),
      };
    },
    presignPut: noUrls,
    presignMultipart: noUrls,
  };
}
