import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";

export interface ListedObject {
  key: string;
  size: number;
  /** The source's own tag of this version: what tells a resumed run the object did not change since. */
  etag: string;
}

/** What is kept of an object besides its bytes (the app stores only these). */
export interface ObjectHeaders {
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
  metadata: Record<string, string>;
}

export async function* listObjects(s3: S3Client, bucket: string): AsyncGenerator<ListedObject> {
  let cursor: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, ...(cursor ? { ContinuationToken: cursor } : {}) }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key) yield { key: object.Key, size: object.Size ?? 0, etag: object.ETag ?? "" };
    }
    cursor = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (cursor);
}

/** Size and headers of the object, or undefined when there is none. */
export async function headObject(
  s3: S3Client,
  bucket: string,
  key: string,
): Promise<{ size: number; headers: ObjectHeaders } | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { size: head.ContentLength ?? 0, headers: headersOf(head) };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as Error).name === "NotFound" || (error as Error).name === "NoSuchKey")
      return undefined;
    throw error;
  }
}

/** SHA-256 of the object's bytes, read as a stream (S3's ETag is no hash of a multipart object). */
export async function objectHash(s3: S3Client, bucket: string, key: string): Promise<string> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash("sha256");
  for await (const chunk of object.Body as Readable) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Streams one object from `from` to `to` under the same key, hashing it on the way: in one PUT up
 * to `partBytes`, else as a multipart upload of parts of that size (S3 takes parts of 5 MiB and
 * more), so memory holds one part at most. Returns the bytes' SHA-256 and size.
 */
export async function copyObject(
  from: { s3: S3Client; bucket: string },
  to: { s3: S3Client; bucket: string },
  key: string,
  partBytes: number,
): Promise<{ sha256: string; size: number }> {
  const object = await from.s3.send(new GetObjectCommand({ Bucket: from.bucket, Key: key }));
  const headers = headersOf(object);
  const put = {
    Bucket: to.bucket,
    Key: key,
    ...(headers.contentType ? { ContentType: headers.contentType } : {}),
    ...(headers.cacheControl ? { CacheControl: headers.cacheControl } : {}),
    ...(headers.contentEncoding ? { ContentEncoding: headers.contentEncoding } : {}),
    Metadata: headers.metadata,
  };
  const hash = createHash("sha256");
  let size = 0;
  const parts = chunksOf(object.Body as Readable, partBytes);
  const first = await parts.next();
  const firstPart = first.done ? Buffer.alloc(0) : first.value;
  hash.update(firstPart);
  size += firstPart.length;
  const second = first.done ? undefined : await parts.next();
  if (!second || second.done) {
    await to.s3.send(new PutObjectCommand({ ...put, Body: firstPart, ContentLength: firstPart.length }));
    return { sha256: hash.digest("hex"), size };
  }

  const { UploadId: uploadId } = await to.s3.send(new CreateMultipartUploadCommand(put));
  try {
    const done: { ETag: string; PartNumber: number }[] = [];
    const sendPart = async (body: Buffer) => {
      const PartNumber = done.length + 1;
      const answer = await to.s3.send(
        new UploadPartCommand({
          Bucket: to.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: body,
          ContentLength: body.length,
        }),
      );
      done.push({ ETag: answer.ETag ?? "", PartNumber });
    };
    await sendPart(firstPart);
    for (let part: IteratorResult<Buffer> = second; !part.done; part = await parts.next()) {
      hash.update(part.value);
      size += part.value.length;
      await sendPart(part.value);
    }
    await to.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: to.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: done },
      }),
    );
  } catch (error) {
    // An upload left open is stored (and billed) until aborted.
    await to.s3
      .send(new AbortMultipartUploadCommand({ Bucket: to.bucket, Key: key, UploadId: uploadId }))
      .catch(() => undefined);
    throw error;
  }
  return { sha256: hash.digest("hex"), size };
}

/** The stream cut into buffers of `size` bytes (the last one shorter). */
async function* chunksOf(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of stream) {
    let rest = chunk as Buffer;
    while (heldBytes + rest.length >= size) {
      const take = size - heldBytes;
      yield Buffer.concat([...held, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      held = [];
      heldBytes = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}

function headersOf(answer: {
  ContentType?: string;
  CacheControl?: string;
  ContentEncoding?: string;
  Metadata?: Record<string, string>;
}): ObjectHeaders {
  return {
    ...(answer.ContentType ? { contentType: answer.ContentType } : {}),
    ...(answer.CacheControl ? { cacheControl: answer.CacheControl } : {}),
    ...(answer.ContentEncoding ? { contentEncoding: answer.ContentEncoding } : {}),
    metadata: answer.Metadata ?? {},
  };
}
