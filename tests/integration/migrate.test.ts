import { createHash } from "node:crypto";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { DownloadCodeResult, EventDto, SearchResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirBusyError } from "../../functions/local/data-dir-lock";
import { type MigrationOptions, MigrationRefused, migrate } from "../../functions/local/migrate/migrate";
import { type Runtime, startRuntime } from "../../functions/local/runtime";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { localStorageCredentials } from "../../functions/src/adapters/local/storage-credentials";
import { adminToken, apiClient } from "../support/api";
import { runtimeS3Client, serveObjectStore } from "../support/object-store";
import { seedEventWithBibPhotos } from "../support/seed";
import { testAdmin } from "../support/test-admin";

const names = { tableName: "dorsal", buckets: { originals: "dorsal-originals", derived: "dorsal-derived" } };

/**
 * `npm run migrate` end to end, offline: runtime A's data dir (an event with processed photos, a
 * download code used once) copied into stand-ins on a second data dir that speak DynamoDB and S3 as
 * AWS would, interrupted half-way and run again; then runtime B on that second dir answers search,
 * a download and the counters as A did.
 */
describe("migrating a local data dir", () => {
  let dirA: string;
  let dirB: string;
  let runtimeA: Runtime | undefined;
  let event: EventDto;
  let code: string;
  let photoId: string;
  let before: Awaited<ReturnType<typeof observe>>;
  let originalA: Buffer;

  const start = (dataDir: string) =>
    startRuntime({
      PORT: "0",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: testAdmin.email,
      ADMIN_PASSWORD: testAdmin.password,
      LOG_LEVEL: "silent",
      RATE_LIMITS: "off",
      OCR_WORKERS: "1",
    });

  /** What an athlete and the admin see of the event: search, the bib grid, the counters, the code's downloads. */
  async function observe(runtime: Runtime) {
    const admin = apiClient(
      runtime.url,
      await adminToken({ url: runtime.url, adminEmail: testAdmin.email, adminPassword: testAdmin.password }),
    );
    const visitor = apiClient(runtime.url);
    const search = async (bib: string) => {
      const found = await visitor.get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`);
      return { total: found.body.totalFound, ids: found.body.photos.map((photo) => photo.id).sort() };
    };
    return {
      search: [await search("5173"), await search("42")],
      event: (await visitor.get<EventDto>(`/api/events/${event.id}`)).body,
      bibs: (await visitor.get(`/api/events/${event.id}/dorsals/all`)).body,
      codes: (
        await admin.get<{ code: string; downloadCount: number }[]>(`/api/admin/download-codes?eventId=${event.id}`)
      ).body,
      dashboard: (await admin.get("/api/dashboard/stats")).body,
    };
  }

  /** The original behind a code's download link, as the athlete gets it. */
  async function download(runtime: Runtime): Promise<Buffer> {
    const redirect = await fetch(new URL(`/api/download-codes/download/${code}/${photoId}`, runtime.url), {
      redirect: "manual",
    });
    expect(redirect.status).toBe(302);
    const original = await fetch(redirect.headers.get("location") ?? "");
    expect(original.status).toBe(200);
    return Buffer.from(await original.arrayBuffer());
  }

  /** Fresh stand-ins on dir B, as a just-deployed stack: an empty table with the schema's indexes, empty buckets. */
  async function withTarget<T>(work: (target: MigrationOptions["target"], s3Endpoint: string) => Promise<T>) {
    const dynamo = await startDynalite(dirB);
    await ensureTable(dynamo.endpoint, "us-east-1", names.tableName);
    const objects = await serveObjectStore(dirB, names.buckets);
    const credentials = await localStorageCredentials(dirB);
    process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
    try {
      return await work(
        {
          kind: "endpoints",
          region: "us-east-1",
          ...names,
          dynamodbEndpoint: dynamo.endpoint,
          s3Endpoint: objects.endpoint,
        },
        objects.endpoint,
      );
    } finally {
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      await objects.close();
      await dynamo.close();
    }
  }

  beforeAll(async () => {
    dirA = await mkdtemp(path.join(tmpdir(), "dorsal-migrate-a-"));
    dirB = await mkdtemp(path.join(tmpdir(), "dorsal-migrate-b-"));
    runtimeA = await start(dirA);
    const token = await adminToken({
      url: runtimeA.url,
      adminEmail: testAdmin.email,
      adminPassword: testAdmin.password,
    });
    const seeded = await seedEventWithBibPhotos(runtimeA, token, {
      name: "Carrera Migrada",
      bibs: ["5173", "5173", "42"],
    });
    event = seeded.event;
    photoId = seeded.photoIdsByBib.get("5173")?.[0] ?? "";
    code = (
      await apiClient(runtimeA.url, token).post<DownloadCodeResult>("/api/admin/generate-download-code", {
        eventId: event.id,
        dorsalNumber: "5173",
      })
    ).body.code;
    originalA = await download(runtimeA);
  }, 180_000);
  afterAll(async () => {
    await runtimeA?.close();
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });

  it("refuses a data dir the runtime is using, or one whose runtime was killed", async () => {
    await withTarget(async (target) => {
      await expect(migrate({ dataDir: dirA, source: names, target })).rejects.toThrow(DataDirBusyError);
      before = await observe(runtimeA as Runtime);
      await runtimeA?.close();
      runtimeA = undefined;
      // A kill leaves no mark of a clean stop, and its counters may be one write behind.
      const mark = path.join(dirA, "stopped-cleanly");
      await rename(mark, `${mark}.aside`);
      await expect(migrate({ dataDir: dirA, source: names, target })).rejects.toThrow(/no se detuvo limpiamente/);
      await rename(`${mark}.aside`, mark);
    });
  });

  it("copies everything, goes on after an interruption without duplicating, and verifies", async () => {
    await withTarget(async (target) => {
      const stop = new AbortController();
      const interrupted = migrate({
        dataDir: dirA,
        source: names,
        target,
        concurrency: 1,
        // Parts this small make every photo a multipart upload (s3rver takes parts of any size).
        partBytes: 16 * 1024,
        signal: stop.signal,
        onProgress: (_phase, done, total) => {
          if (done > total / 2) stop.abort();
        },
      });
      await expect(interrupted).rejects.toThrow(MigrationRefused);

      const resumed = await migrate({ dataDir: dirA, source: names, target, partBytes: 16 * 1024 });
      expect(resumed.resumed).toBe(true);
      expect(resumed.items.mismatches).toEqual([]);
      expect(resumed.objects.mismatches).toEqual([]);
      expect(resumed.ok).toBe(true);
      // What the first run copied is not copied again: both runs together copied each object once.
      const sources = resumed.objects.buckets.originals.source + resumed.objects.buckets.derived.source;
      expect(resumed.objects.unchanged).toBeGreaterThan(0);
      expect(resumed.objects.copied + resumed.objects.unchanged).toBe(sources);
      expect(resumed.objects.buckets.originals.source).toBe(3);
      expect(resumed.items.kinds["PHOTO/PHOTO"]).toEqual({ source: 3, same: 3 });
      expect(resumed.items.kinds["EVENT/BIB"]).toEqual({ source: 2, same: 2 });
      expect(resumed.items.kinds["CODE/DL"]).toEqual({ source: 1, same: 1 });

      // A run after a finished one writes nothing and verifies again.
      const again = await migrate({ dataDir: dirA, source: names, target });
      expect(again).toMatchObject({ ok: true, objects: { copied: 0 }, items: { written: 0 } });
    });
  }, 120_000);

  it("finds a changed object at the target, and copies it again on the next run", async () => {
    await withTarget(async (target, s3Endpoint) => {
      const s3 = await runtimeS3Client(dirB, s3Endpoint);
      const key = `eventos/${event.id}/originales/${photoId}.jpg`;
      const listed = await migrate({ dataDir: dirA, source: names, target });
      expect(listed.ok).toBe(true);
      await s3.send(
        new PutObjectCommand({
          Bucket: names.buckets.originals,
          Key: key,
          Body: Buffer.alloc(originalA.length, 1),
          ContentType: "image/jpeg",
        }),
      );
      s3.destroy();
      const checked = await migrate({ dataDir: dirA, source: names, target });
      expect(checked.ok).toBe(false);
      expect(checked.objects.mismatches).toEqual([`originals/${key}: contenido distinto (SHA-256)`]);
      const repaired = await migrate({ dataDir: dirA, source: names, target });
      expect(repaired).toMatchObject({ ok: true, objects: { copied: 1 } });
    });
  }, 60_000);

  it("leaves runtime B on the copy answering search, downloads and counters as A did", async () => {
    const runtimeB = await start(dirB);
    try {
      expect(await observe(runtimeB)).toEqual(before);
      const originalB = await download(runtimeB);
      const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
      expect(sha(originalB)).toBe(sha(originalA));
    } finally {
      await runtimeB.close();
    }
  }, 60_000);
});
