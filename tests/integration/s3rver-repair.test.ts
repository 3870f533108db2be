import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeS3Client, serveObjectStore } from "../support/object-store";

/**
 * s3rver (as hardened in functions/local/s3rver-store.ts) must behave like S3 where the runtime
 * leans on it: a PUT a kill cut off is not served after the restart, a deletion never takes down a
 * write into the same folder (or the process), and a part finds no upload that was aborted.
 */
describe("local object store", () => {
  const bucket = "repair-test";
  let dataDir: string;
  let served: Awaited<ReturnType<typeof serveObjectStore>> | undefined;

  async function serve(): Promise<S3Client> {
    served = await serveObjectStore(dataDir, { originals: bucket, derived: `${bucket}-derived` });
    return runtimeS3Client(dataDir, served.endpoint);
  }
  async function stop() {
    await served?.close();
    served = undefined;
  }
  const statusOf = (client: S3Client, key: string) =>
    client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
      () => 200,
      (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-s3repair-"));
  });
  afterAll(async () => {
    await stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("drops, after a kill mid-PUT, objects whose metadata or bytes were cut off, and keeps whole ones", async () => {
    const client = await serve();
    for (const key of ["events/1/whole.jpg", "events/1/cut-metadata.jpg", "events/1/no-metadata.jpg"]) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(4096, 7) }));
    }
    await stop();
    const folder = path.join(dataDir, "s3", bucket, "events", "1");
    // What a kill leaves: metadata half-written, or not written at all.
    await writeFile(path.join(folder, "cut-metadata.jpg._S3rver_metadata.json"), '{"content-type": "ima');
    await rm(path.join(folder, "no-metadata.jpg._S3rver_metadata.json"));
    // And a write cut off before it was renamed into place.
    await writeFile(path.join(folder, "cut-write.jpg._S3rver_object.3f2a.tmp"), Buffer.alloc(100));
    expect(await statusOf(await serve(), "events/1/whole.jpg")).toBe(200);
    await stop();

    const restarted = await serve();
    expect(await statusOf(restarted, "events/1/cut-metadata.jpg")).toBe(404);
    expect(await statusOf(restarted, "events/1/no-metadata.jpg")).toBe(404);
    const whole = await restarted.send(new GetObjectCommand({ Bucket: bucket, Key: "events/1/whole.jpg" }));
    expect((await whole.Body?.transformToByteArray())?.length).toBe(4096);
    expect((await readdir(folder)).filter((file) => !file.startsWith("whole.jpg"))).toEqual([]);
  });

  it("loses nothing and stays up when objects are deleted while others are written into the same folders", async () => {
    const client = await serve();
    const body = Buffer.alloc(64 * 1024, 3);
    const put = (key: string) => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    // A deletion empties a folder (and removes it) just as the pipeline writes the next copy into it.
    for (let round = 0; round < 150; round += 1) {
      await put(`race/${round}/first.jpg`);
      await Promise.all([
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `race/${round}/first.jpg` })),
        put(`race/${round}/second.jpg`),
      ]);
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "race/" }));
    expect(listed.Contents?.map((object) => [object.Key, object.Size])).toEqual(
      Array.from({ length: 150 }, (_, round) => [`race/${round}/second.jpg`, body.length]).sort(),
    );
    await stop();
  });

  it("refuses a part of an upload it does not have, instead of starting one", async () => {
    const client = await serve();
    const uploadId = "0123456789abcdef0123456789abcdef";
    const refused = await client
      .send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: "parts/photo.jpg",
          UploadId: uploadId,
          PartNumber: 1,
          Body: Buffer.alloc(1024),
        }),
      )
      .then(
        () => undefined,
        (error: { name?: string }) => error.name,
      );
    expect(refused).toBe("NoSuchUpload");
    const uploads = await readdir(path.join(dataDir, "s3", bucket, "._S3rver_uploads")).catch(() => []);
    expect(uploads).not.toContain(uploadId);
    await stop();
  });
});
