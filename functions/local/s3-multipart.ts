import { readdir, readFile, rm, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type S3rver from "s3rver";
import { decodePath } from "./http-bridge";

/**
 * What s3rver 3.7 lacks of S3's multipart API, which the browser's uploader (Uppy's
 * `@uppy/aws-s3`) calls directly: ListParts (how an interrupted upload learns which parts arrived)
 * and AbortMultipartUpload (cancel) answer "method not allowed" there, and UploadPart /
 * CompleteMultipartUpload accept any upload id under any key. This handler sits in front of
 * s3rver and does what S3 does, over s3rver's own files: lists and aborts uploads, and answers
 * NoSuchUpload when the upload id is unknown or belongs to another key, so a URL signed for one
 * key can never write into another key's upload. Everything else goes on to s3rver. It sits behind
 * the store's gate (object-store-server.ts), which has checked the signature and set CORS.
 */
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
}

const uploadIdPattern = /^[0-9a-f]{32}$/;

export function createMultipartGaps(s3rver: S3rver, buckets: string[]) {
  const store = (s3rver as unknown as { store: S3rverStore }).store;
  const uploadDir = (bucket: string, uploadId: string) =>
    path.join(store.getResourcePath(bucket, undefined, "uploads"), uploadId);

  const keyOfUpload = async (bucket: string, uploadId: string): Promise<string | undefined> => {
    if (!uploadIdPattern.test(uploadId)) return undefined;
    try {
      return await readFile(path.join(uploadDir(bucket, uploadId), "key"), "utf8");
    } catch {
      return undefined;
    }
  };

  /** Returns true when it answered the request itself. */
  return async function handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    const uploadId = url.searchParams.get("uploadId");
    if (uploadId === null) return false;
    const [, bucket = "", ...rest] = url.pathname.split("/");
    if (!buckets.includes(bucket) || rest.length === 0) return false;
    const key = rest.map(decodePath).join("/");
    const method = request.method ?? "GET";
    if (!["GET", "DELETE", "PUT", "POST"].includes(method)) return false;

    if ((await keyOfUpload(bucket, uploadId)) !== key) {
      request.resume();
      writeXml(response, 404, errorXml("NoSuchUpload", "The specified upload does not exist.", uploadId));
      return true;
    }
    if (method === "GET") {
      writeXml(response, 200, await listPartsXml(uploadDir(bucket, uploadId), bucket, key, uploadId));
      return true;
    }
    if (method === "DELETE") {
      await rm(uploadDir(bucket, uploadId), { recursive: true, force: true });
      response.writeHead(204);
      response.end();
      return true;
    }
    // A part or the completion of a known upload of this key: s3rver's own work.
    return false;
  };
}

async function listPartsXml(dir: string, bucket: string, key: string, uploadId: string): Promise<string> {
  const numbers = (await readdir(dir))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (number) => {
      const [info, md5] = await Promise.all([
        stat(path.join(dir, String(number))),
        readFile(path.join(dir, `${number}.md5`), "utf8").catch(() => undefined),
      ]);
      // A part still being written has no checksum yet: S3 does not list it either.
      if (md5 === undefined) return "";
      return `<Part><PartNumber>${number}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
    }),
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
    `<Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId>` +
    `<PartNumberMarker>0</PartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>` +
    `${parts.join("")}</ListPartsResult>`
  );
}

function errorXml(code: string, message: string, uploadId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><UploadId>${escapeXml(uploadId)}</UploadId></Error>`;
}

function writeXml(response: ServerResponse, status: number, xml: string): void {
  response.writeHead(status, { "content-type": "application/xml" });
  response.end(xml);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
