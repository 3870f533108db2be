import type { EventEmitter } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { S3Event } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessObjectStore } from "../../functions/local/s3rver-in-process";
import { createS3ObjectStore } from "../../functions/src/adapters/aws/s3-object-store";
import { createMemoryObjectStore } from "../../functions/src/adapters/memory/object-store";
import type { ObjectStore } from "../../functions/src/ports/object-store";
import { testBuckets } from "../support/in-process";
import { runtimeS3Client, serveObjectStore } from "../support/object-store";

interface StoreUnderTest {
  objects: ObjectStore;
  /** Object-created events the store announced, where it announces any. */
  announced?: S3Event[];
  close(): Promise<void>;
}

async function s3rverStores(): Promise<{ overHttp: StoreUnderTest; inProcess: StoreUnderTest }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-object-stores-"));
  const served = await serveObjectStore(dataDir, testBuckets);
  const client = await runtimeS3Client(dataDir, served.endpoint);
  const overHttp = createS3ObjectStore(client, testBuckets);
  const announced: S3Event[] = [];
  (served.store.s3rver as unknown as EventEmitter).on("event", (event: S3Event) => announced.push(event));
  const close = async () => {
    client.destroy();
    await served.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return {
    overHttp: { objects: overHttp, announced, close },
    inProcess: {
      objects: createInProcessObjectStore({ s3rver: served.store.s3rver, buckets: testBuckets, presigning: overHttp }),
      announced,
      close: async () => undefined,
    },
  };
}

let s3rver: Awaited<ReturnType<typeof s3rverStores>> | undefined;
const backends: [string, () => Promise<StoreUnderTest>][] = [
  [
    "the S3 adapter over HTTP to s3rver",
    async () => {
      s3rver ??= await s3rverStores();
      return s3rver.overHttp;
    },
  ],
  [
    "s3rver's store in process",
    async () => {
      s3rver ??= await s3rverStores();
      return s3rver.inProcess;
    },
  ],
  ["the in-memory store", async () => ({ objects: createMemoryObjectStore(), close: async () => undefined })],
];
afterAll(async () => {
  await s3rver?.overHttp.close();
});

// The runtime reaches stored objects in process, the browser over HTTP, AWS through the SDK: the
// port must behave the same whichever way it is reached.
describe.each(backends)("object store: %s", (name, open) => {
  let under: StoreUnderTest;
  const prefix = `contract/${name.replace(/\W+/g, "-")}/`;
  beforeAll(async () => {
    under = await open();
  });

  it("stores bytes with their type, reads them whole, in ranges and as streams, and deletes them", async () => {
    const { objects } = under;
    const key = `${prefix}photo.jpg`;
    const bytes = Buffer.from("0123456789abcdef".repeat(1000));
    expect(await objects.head("derived", key)).toBeUndefined();
    await objects.put("derived", key, bytes, "image/jpeg", bytes.length);
    expect(await objects.head("derived", key)).toMatchObject({ size: bytes.length, contentType: "image/jpeg" });
    expect((await objects.getBuffer("derived", key)).equals(bytes)).toBe(true);
    expect((await objects.getRange("derived", key, 2, 5)).toString()).toBe("2345");
    expect((await buffer(await objects.getStream("derived", key))).equals(bytes)).toBe(true);
    expect((await buffer(await objects.getRangeStream("derived", key, 10, 17))).toString()).toBe("abcdef01");
    await objects.delete("derived", key);
    expect(await objects.head("derived", key)).toBeUndefined();
    await expect(objects.getBuffer("derived", key)).rejects.toThrow();
  });

  it("lists a prefix in key order and deletes a prefix whole", async () => {
    const { objects } = under;
    const folder = `${prefix}few/`;
    const keys = ["b.jpg", "a.jpg", "c/d.jpg"].map((name) => `${folder}${name}`);
    for (const key of keys) await objects.put("derived", key, Buffer.from(key), "image/jpeg");
    const listed = await objects.list("derived", folder);
    expect(listed.objects.map((object) => object.key)).toEqual([...keys].sort());
    expect(listed.cursor).toBeUndefined();
    expect(await objects.deletePrefix("derived", folder)).toBe(3);
    expect((await objects.list("derived", folder)).objects).toEqual([]);
  });

  // s3rver 3.7 encrypts ListObjectsV2's continuation token with a cipher OpenSSL 3 refuses, so past
  // 1000 objects its HTTP listing fails (InternalError); S3 itself pages fine. The runtime lists in
  // process, by key, and must page.
  it.runIf(name !== "the S3 adapter over HTTP to s3rver")(
    "pages past 1000 objects and deletes them all, a page at a time when asked",
    async () => {
      const { objects } = under;
      const folder = `${prefix}many/`;
      const keys = Array.from({ length: 1003 }, (_, i) => `${folder}${String(i).padStart(4, "0")}.jpg`);
      for (let i = 0; i < keys.length; i += 50) {
        await Promise.all(
          keys.slice(i, i + 50).map((key) => objects.put("derived", key, Buffer.from(key), "image/jpeg")),
        );
      }
      await objects.put("derived", `${prefix}other.jpg`, Buffer.from("x"), "image/jpeg");
      const first = await objects.list("derived", folder);
      expect(first.objects).toHaveLength(1000);
      expect(first.objects[0]).toEqual({ key: keys[0], size: (keys[0] as string).length });
      const second = await objects.list("derived", folder, first.cursor);
      expect(second.objects.map((object) => object.key)).toEqual(keys.slice(1000));
      expect(second.cursor).toBeUndefined();
      // A bounded call (background deletion's time slices) stops after its pages; the next takes the rest.
      expect(await objects.deletePrefix("derived", folder, { maxPages: 1 })).toBe(1000);
      expect(await objects.deletePrefix("derived", folder)).toBe(3);
      expect((await objects.list("derived", folder)).objects).toEqual([]);
      expect(await objects.head("derived", `${prefix}other.jpg`)).toBeDefined();
    },
    60_000,
  );

  it.runIf(name !== "the in-memory store")(
    "announces an original as created, with its size, as S3 notifies the pipeline",
    async () => {
      const { objects, announced = [] } = under;
      const key = `eventos/1/originales/${name.length}contract.jpg`;
      await objects.put("originals", key, Buffer.from("original"), "image/jpeg");
      await expect
        .poll(() =>
          announced
            .flatMap((event) => event.Records)
            .find((record) => record.s3.object.key === key && record.eventName.startsWith("ObjectCreated:")),
        )
        .toMatchObject({ s3: { bucket: { name: testBuckets.originals }, object: { size: 8 } } });
    },
  );
});
