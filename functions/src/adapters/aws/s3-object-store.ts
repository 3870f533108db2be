import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  NotFound,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BucketRole, MultipartRequest, ObjectStore } from "../../ports/object-store";

/** The ObjectStore port over S3; the local runtime points the same adapter at s3rver. */
export function createS3ObjectStore(client: S3Client, buckets: Record<BucketRole, string>): ObjectStore {
  const getBytes = async (bucket: BucketRole, key: string, range?: string) => {
    const out = await client.send(
      new GetObjectCommand({ Bucket: buckets[bucket], Key: key, ...(range ? { Range: range } : {}) }),
    );
    if (!out.Body) throw new Error(`Empty body for ${buckets[bucket]}/${key}`);
    return Buffer.from(await out.Body.transformToByteArray());
  };

  const getStream = async (bucket: BucketRole, key: string, range?: string) => {
    const out = await client.send(
      new GetObjectCommand({ Bucket: buckets[bucket], Key: key, ...(range ? { Range: range } : {}) }),
    );
    if (!out.Body) throw new Error(`Empty body for ${buckets[bucket]}/${key}`);
    // In Node the SDK's body is an IncomingMessage (a Readable); anything else is adapted from its web stream.
    return out.Body instanceof Readable
      ? out.Body
      : Readable.fromWeb(out.Body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
  };

  return {
    bucketName: (bucket) => buckets[bucket],

    async put(bucket, key, body: Buffer | Readable, contentType, size) {
      await client.send(
        new PutObjectCommand({
          Bucket: buckets[bucket],
          Key: key,
          Body: body,
          ContentType: contentType,
          ...(size !== undefined ? { ContentLength: size } : {}),
        }),
      );
    },

    getBuffer: (bucket, key) => getBytes(bucket, key),

    getRange: (bucket, key, start, endInclusive) => getBytes(bucket, key, `bytes=${start}-${endInclusive}`),

    getStream: (bucket, key) => getStream(bucket, key),

    getRangeStream: (bucket, key, start, endInclusive) => getStream(bucket, key, `bytes=${start}-${endInclusive}`),

    async head(bucket, key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: buckets[bucket], Key: key }));
        return { size: out.ContentLength ?? 0, contentType: out.ContentType, metadata: out.Metadata ?? {} };
      } catch (error) {
        if (error instanceof NotFound || (error as { name?: string }).name === "NotFound") return undefined;
        throw error;
      }
    },

    async delete(bucket, key) {
      await client.send(new DeleteObjectCommand({ Bucket: buckets[bucket], Key: key }));
    },

    async deletePrefix(bucket, prefix, options) {
      const deleteBatch = async (objects: { Key: string }[]) => {
        const out = await client.send(
          new DeleteObjectsCommand({ Bucket: buckets[bucket], Delete: { Objects: objects, Quiet: true } }),
        );
        const failed = out.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(`Could not delete ${failed.length} objects under ${prefix}: ${failed[0]?.Message ?? ""}`);
        }
        return objects.length;
      };
      const batches: Promise<number>[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        // Up to 1000 keys a page, which is also what one DeleteObjects request takes. Each page is
        // deleted while the next is listed: the continuation token does not depend on the keys.
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: buckets[bucket],
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (objects.length > 0) batches.push(deleteBatch(objects));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
        pages += 1;
      } while (token && pages !== options?.maxPages);
      const counts = await Promise.all(batches);
      return counts.reduce((sum, count) => sum + count, 0);
    },

    async list(bucket, prefix, cursor) {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: buckets[bucket],
          Prefix: prefix,
          ...(cursor ? { ContinuationToken: cursor } : {}),
        }),
      );
      const objects = (page.Contents ?? []).flatMap((object) =>
        object.Key ? [{ key: object.Key, size: object.Size ?? 0 }] : [],
      );
      const next = page.IsTruncated ? page.NextContinuationToken : undefined;
      return { objects, ...(next ? { cursor: next } : {}) };
    },

    presignPut: (bucket, key, contentType, expiresInSeconds) =>
      getSignedUrl(client, new PutObjectCommand({ Bucket: buckets[bucket], Key: key, ContentType: contentType }), {
        expiresIn: expiresInSeconds,
        signableHeaders: signedContentType,
      }),

    presignMultipart: (bucket, key, request, expiresInSeconds) =>
      presignMultipartRequest(client, { Bucket: buckets[bucket], Key: key }, request, expiresInSeconds),
  };
}

/**
 * The presigner leaves Content-Type unsigned unless told: the uploader could then store a photo as
 * `text/html` and have the store serve it as a page. Signed, the store refuses any other type.
 */
const signedContentType = new Set(["content-type"]);

function presignMultipartRequest(
  client: S3Client,
  target: { Bucket: string; Key: string },
  request: MultipartRequest,
  expiresIn: number,
): Promise<string> {
  switch (request.step) {
    case "create":
      return getSignedUrl(client, new CreateMultipartUploadCommand({ ...target, ContentType: request.contentType }), {
        expiresIn,
        signableHeaders: signedContentType,
      });
    case "part":
      return getSignedUrl(
        client,
        new UploadPartCommand({ ...target, UploadId: request.uploadId, PartNumber: request.partNumber }),
        { expiresIn },
      );
    case "list":
      return getSignedUrl(client, new ListPartsCommand({ ...target, UploadId: request.uploadId }), { expiresIn });
    case "complete":
      return getSignedUrl(client, new CompleteMultipartUploadCommand({ ...target, UploadId: request.uploadId }), {
        expiresIn,
      });
    case "abort":
      return getSignedUrl(client, new AbortMultipartUploadCommand({ ...target, UploadId: request.uploadId }), {
        expiresIn,
      });
  }
}
