import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, rmdir, unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type S3rver from "s3rver";

/**
 * s3rver 3.7's file store, made safe for a server that deletes while it writes. Its own writes
 * open the file with no error handler after creating the directory, and its deletes remove a
 * directory they saw empty a moment before: an event deleted while its photos are still being
 * processed (a derived copy written into the directory the deletion is emptying) made the open
 * fail, and the unhandled stream error ended the whole process. Here every write goes to a temporary
 * file created in a directory that is made again if a delete took it away, and is renamed into
 * place once complete, so a reader never sees half an object; a delete removes only directories
 * that are still empty when it removes them. Parts of an aborted multipart upload are refused with
 * NoSuchUpload instead of re-creating the upload.
 */
interface S3rverObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

interface FilesystemStore {
  getBucketPath(bucket: string): string;
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  putPart(
    bucket: string,
    uploadId: string,
    partNumber: number,
    content: Readable,
  ): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  deleteSubresource(bucket: string, key: undefined, resourceType: string): Promise<void>;
}

type S3ErrorConstructor = new (code: string, message: string, detail?: Record<string, string>) => Error;
const S3Error = createRequire(import.meta.url)("s3rver/lib/models/error") as S3ErrorConstructor;

const temporarySuffix = ".tmp";
const objectSuffix = "._S3rver_object";
const metadataSuffix = "._S3rver_metadata.json";

export function hardenS3rverStore(s3rver: S3rver): void {
  const store = (s3rver as unknown as { store: FilesystemStore }).store;

  /** s3rver joins keys to paths as they are: a key that climbs out of its bucket never reaches the disk. */
  const insideBucket = (bucket: string, key: string, resource: string) => {
    const file = store.getResourcePath(bucket, key, resource);
    if (!file.startsWith(`${store.getBucketPath(bucket)}${path.sep}`)) {
      throw new S3Error("InvalidURI", "Couldn't parse the specified URI.");
    }
    return file;
  };

  store.putObject = async (object) => {
    const file = insideBucket(object.bucket, object.key, "object");
    const written = await writeAtomically(file, object.content, { createDirectory: true });
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };

  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(store.getResourcePath(bucket, undefined, "uploads"), uploadId, String(partNumber));
    try {
      const written = await writeAtomically(file, content, { createDirectory: false });
      await writeAtomically(`${file}.md5`, Buffer.from(written.md5), { createDirectory: false });
      return written;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      content.resume();
      throw new S3Error("NoSuchUpload", "The specified upload does not exist.", { UploadId: uploadId });
    }
  };

  store.deleteObject = async (bucket, key) => {
    const file = insideBucket(bucket, key, "object");
    await Promise.all(
      [file, `${file}.md5`, store.getResourcePath(bucket, key, "metadata.json")].map((part) =>
        rm(part, { force: true }),
      ),
    );
    // Up to the bucket: rmdir removes a directory only while it is empty, which a check before it cannot promise.
    const bucketPath = store.getBucketPath(bucket);
    for (let dir = path.dirname(file); dir.startsWith(`${bucketPath}${path.sep}`); dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch (error) {
        if (["ENOTEMPTY", "EEXIST", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) return;
        throw error;
      }
    }
  };
}

export async function dropStoredCorsConfigs(s3rver: S3rver, buckets: string[]): Promise<void> {
  const store = (s3rver as unknown as { store: FilesystemStore }).store;
  await Promise.all(buckets.map((bucket) => store.deleteSubresource(bucket, undefined, "cors")));
}

/** Writes `content` beside `file` and renames it into place; returns its size and MD5 as S3 reports them. */
async function writeAtomically(
  file: string,
  content: Buffer | Readable,
  options: { createDirectory: boolean },
): Promise<{ size: number; md5: string }> {
  const temporary = `${file}.${randomUUID()}${temporarySuffix}`;
  const handle = await openCreating(temporary, options.createDirectory);
  const md5 = createHash("md5");
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, measure, handle.createWriteStream());
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return { size, md5: md5.digest("hex") };
}

/** A directory a concurrent delete removed between its creation and the open is made again. */
async function openCreating(file: string, createDirectory: boolean) {
  for (let attempt = 1; ; attempt += 1) {
    if (createDirectory) await mkdir(path.dirname(file), { recursive: true });
    try {
      return await open(file, "wx");
    } catch (error) {
      if (!createDirectory || (error as NodeJS.ErrnoException).code !== "ENOENT" || attempt === 5) throw error;
    }
  }
}

/**
 * An S3 PUT is atomic; s3rver's is three files (the bytes, their MD5, then the metadata), so a
 * process killed mid-PUT leaves bytes without metadata, or unreadable metadata, which s3rver then
 * serves as a whole object or answers with a 500, and a killed write leaves its temporary file. An
 * object whose metadata is missing or unreadable was never acknowledged to its writer: it is
 * removed, as if the PUT had not happened, and the writer's retry (Uppy's, the ZIP extraction's,
 * the start-up sweep's verdict) takes it from there.
 */
export async function discardInterruptedPuts(directory: string): Promise<void> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = new Set(
    entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)),
  );
  for (const file of files) {
    if (file.endsWith(temporarySuffix)) {
      await rm(file, { force: true });
      continue;
    }
    if (!file.endsWith(objectSuffix)) continue;
    const metadata = `${file.slice(0, -objectSuffix.length)}${metadataSuffix}`;
    if (files.has(metadata) && (await isReadableJson(metadata))) continue;
    await Promise.all([file, `${file}.md5`, metadata].map((part) => rm(part, { force: true })));
  }
}

async function isReadableJson(file: string): Promise<boolean> {
  try {
    JSON.parse(await readFile(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}
