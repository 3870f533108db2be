import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3rver } from "../../functions/local/storage";

/**
 * s3rver writes an object as three files; a process killed in between must not leave an object
 * that is served truncated or answers 500 after the restart: the local store drops it, as S3 would
 * never have stored a PUT that did not complete.
 */
describe("local object store after a kill mid-PUT", () => {
  const bucket = "repair-test";
  let dataDir: string;
  let server: Server | undefined;

  async function serve(): Promise<S3Client> {
    const s3rver = await createS3rver(dataDir, [bucket]);
    server = createServer(s3rver.callback());
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return new S3Client({
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  }
  async function stop() {
    await new Promise((resolve) => server?.close(resolve));
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

  it("drops objects whose metadata was cut off or never written, and keeps whole ones", async () => {
    const client = await serve();
    for (const key of ["events/1/whole.jpg", "events/1/cut-metadata.jpg", "events/1/no-metadata.jpg"]) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(4096, 7) }));
    }
    await stop();
    const folder = path.join(dataDir, "s3", bucket, "events", "1");
    // What a kill leaves: metadata half-written, or not written at all.
    await writeFile(path.join(folder, "cut-metadata.jpg._S3rver_metadata.json"), '{"content-type": "ima');
    await rm(path.join(folder, "no-metadata.jpg._S3rver_metadata.json"));
    expect(await statusOf(await serve(), "events/1/whole.jpg")).toBe(200);
    await stop();

    const restarted = await serve();
    expect(await statusOf(restarted, "events/1/cut-metadata.jpg")).toBe(404);
    expect(await statusOf(restarted, "events/1/no-metadata.jpg")).toBe(404);
    const whole = await restarted.send(new GetObjectCommand({ Bucket: bucket, Key: "events/1/whole.jpg" }));
    expect((await whole.Body?.transformToByteArray())?.length).toBe(4096);
    expect((await readdir(folder)).filter((file) => !file.startsWith("whole.jpg"))).toEqual([]);
  });
});
