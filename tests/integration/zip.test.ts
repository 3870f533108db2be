import { readdir } from "node:fs/promises";
import path from "node:path";
import type {
  EventDto,
  PhotoPage,
  SearchResponse,
  ZipBatchCreated,
  ZipBatchStatus,
  ZipBatchStatusResponse,
  ZipUploadResponse,
} from "@dorsal/shared";
import { limits, zipSkipReasons } from "@dorsal/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../functions/src/app/deps";
import { resumeZipBatches, settleZipPhoto } from "../../functions/src/app/zip-batches";
import { importZip, zipPhotoId } from "../../functions/src/app/zip-extraction";
import { newBatchFields } from "../../functions/src/data/zip-batches";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { startInProcess } from "../support/in-process";
import { type RunningDorsal, startDorsal } from "../support/server";
import { makeZip } from "../support/zip";

const statusOrder: ZipBatchStatus[] = ["uploading", "extracting", "processing", "completed"];

/** Three photos and every kind of entry that must be skipped, with the reason each gets. */
async function raceZip(): Promise<{ zip: Buffer; expectedSkipped: { name: string; reason: string }[] }> {
  const inner = await makeZip([{ name: "dentro.jpg", data: await makeBibPhoto("999", { width: 400, height: 300 }) }]);
  const plain = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3a7" } })
    .png()
    .toBuffer();
  const zip = await makeZip(
    [
      { name: "fotos/" },
      { name: "fotos/meta-521.jpg", data: await makeBibPhoto("521") },
      // Already-compressed JPEG bytes are usually stored, not deflated: both methods must work.
      { name: "fotos/salida-87.jpg", data: await makeBibPhoto("87"), compress: false },
      { name: "fotos/paisaje.png", data: plain },
      { name: "XX/evil.jpg", data: await makeBibPhoto("666", { width: 400, height: 300 }) },
      { name: "inner.zip", data: inner },
      { name: "fotos/sorpresa.jpg", data: inner },
      { name: "notes.txt", data: Buffer.from("Fotos de la carrera del domingo") },
      { name: "fotos/falsa.jpg", data: Buffer.from("esto no es una imagen, aunque se llame .jpg") },
      { name: "__MACOSX/fotos/._meta-521.jpg", data: Buffer.from("metadatos de macOS") },
      { name: "fotos/.DS_Store", data: Buffer.from("metadatos de Finder") },
    ],
    { "XX/evil.jpg": "../evil.jpg" },
  );
  return {
    zip,
    expectedSkipped: [
      { name: "../evil.jpg", reason: zipSkipReasons.unsafePath },
      { name: "inner.zip", reason: zipSkipReasons.nestedArchive },
      { name: "fotos/sorpresa.jpg", reason: zipSkipReasons.nestedArchive },
      { name: "notes.txt", reason: zipSkipReasons.notImage },
      { name: "fotos/falsa.jpg", reason: zipSkipReasons.notImage },
    ],
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * ZIP imports over HTTP against the embedded runtime, both ways in: the spec's multipart
 * `upload-zip` and a batch whose ZIP the client PUTs straight to storage. Entries that must not be
 * imported are skipped with their reason; the photos become searchable; the batch goes
 * uploading → extracting → processing → completed with exact counters.
 */
describe("ZIP import", () => {
  let dorsal: RunningDorsal;
  let token: string;
  let event: EventDto;
  let race: Awaited<ReturnType<typeof raceZip>>;

  beforeAll(async () => {
    dorsal = await startDorsal();
    token = await adminToken(dorsal);
    event = (await api().post<EventDto>("/api/events", { name: "Maratón del ZIP", date: "2026-12-06" })).body;
    race = await raceZip();
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  const api = () => apiClient(dorsal.url, token);

  /** Polls as the UI does, recording every status seen, until the batch completes or fails. */
  const followBatch = async (batchId: string) => {
    const seen: ZipBatchStatus[] = [];
    const final = await waitFor(
      async () => {
        const { status, body } = await api().get<ZipBatchStatusResponse>(`/api/photos/batch-status/${batchId}`);
        expect(status).toBe(200);
        if (seen.at(-1) !== body.status) seen.push(body.status);
        expect(body.processedFiles).toBeLessThanOrEqual(body.extractedFiles);
        return body.status === "completed" || body.status === "error" ? body : undefined;
      },
      110_000,
      `batch ${batchId} to finish`,
    );
    return { final, seen };
  };

  const expectOrdered = (seen: ZipBatchStatus[]) => {
    const positions = seen.map((status) => statusOrder.indexOf(status));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  };

  it("imports a multipart ZIP: photos extracted and searchable, every bad entry skipped with its reason", async () => {
    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("zipFile", new Blob([race.zip], { type: "application/zip" }), "carrera.zip");
    const uploaded = await api().post<ZipUploadResponse>("/api/photos/upload-zip", form);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ success: true, totalFiles: 8 });

    const { final, seen } = await followBatch(uploaded.body.batchId);
    expectOrdered(seen);
    expect(final).toMatchObject({
      status: "completed",
      eventId: event.id,
      totalFiles: 8,
      extractedFiles: 3,
      processedFiles: 3,
      skippedFiles: 5,
      error: null,
    });
    expect(final.skipped).toEqual(race.expectedSkipped);

    const found = await apiClient(dorsal.url).get<SearchResponse>(
      `/api/photos/search?eventId=${event.id}&dorsalNumber=521`,
    );
    expect(found.body.totalFound).toBe(1);
    expect(found.body.photos[0]?.originalFilename).toBe("meta-521.jpg");

    const photos = (await api().get<PhotoPage>(`/api/events/${event.id}/photos?limit=100`)).body.photos;
    expect(photos.map((photo) => photo.originalFilename).sort()).toEqual([
      "meta-521.jpg",
      "paisaje.png",
      "salida-87.jpg",
    ]);
    expect(photos.every((photo) => photo.processingStatus === "successful")).toBe(true);

    // Nothing landed anywhere but the event's originals, and the extracted ZIP is gone.
    const stored = await filesUnder(path.join(dorsal.dataDir, "s3", "dorsal-originals"));
    const objects = stored.filter((file) => file.endsWith("._S3rver_object"));
    expect(objects.length).toBe(3);
    for (const object of objects) {
      expect(object).toMatch(new RegExp(`^eventos/${event.id}/originales/[a-z0-9]+\\.(jpg|png)\\._S3rver_object$`));
    }
    expect((await filesUnder(dorsal.dataDir)).some((file) => file.includes("evil"))).toBe(false);
  });

  it("imports a ZIP PUT straight to storage; copies of photos the event has count as processed", async () => {
    const created = await api().post<ZipBatchCreated>("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "carrera-otra-vez.ZIP",
      size: race.zip.length,
    });
    expect(created.status).toBe(200);
    expect(created.body.key).toBe(`uploads/zips/${created.body.batchId}.zip`);
    const before = await api().get<ZipBatchStatusResponse>(`/api/photos/batch-status/${created.body.batchId}`);
    expect(before.body).toMatchObject({ status: "uploading", totalFiles: 0, extractedFiles: 0, processedFiles: 0 });

    const put = await fetch(created.body.url, { method: "PUT", headers: created.body.headers, body: race.zip });
    expect(put.status).toBe(200);

    const { final, seen } = await followBatch(created.body.batchId);
    expectOrdered(seen);
    expect(final).toMatchObject({ status: "completed", totalFiles: 8, extractedFiles: 3, processedFiles: 3 });
    expect(final.skipped).toEqual(race.expectedSkipped);

    const photos = (await api().get<PhotoPage>(`/api/events/${event.id}/photos?limit=100`)).body.photos;
    expect(photos.filter((photo) => photo.processingStatus === "duplicate")).toHaveLength(3);
    const found = await apiClient(dorsal.url).get<SearchResponse>(
      `/api/photos/search?eventId=${event.id}&dorsalNumber=521`,
    );
    expect(found.body.totalFound).toBe(1);
  });

  it("refuses a ZIP over the maximum and anything not named .zip, with the spec's messages", async () => {
    const tooBig = await api().post("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "enorme.zip",
      size: 2 * 1024 ** 3 + 1,
    });
    expect(tooBig).toMatchObject({
      status: 413,
      body: { success: false, error: "El archivo es demasiado grande. Máximo permitido: 2GB" },
    });

    const notZip = await api().post("/api/photos/zip-batches", { eventId: event.id, filename: "fotos.rar", size: 10 });
    expect(notZip).toMatchObject({
      status: 400,
      body: { success: false, error: "Por favor selecciona un archivo ZIP válido" },
    });

    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("zipFile", new Blob([race.zip], { type: "application/zip" }), "carrera.tar");
    const multipart = await api().post("/api/photos/upload-zip", form);
    expect(multipart).toMatchObject({ status: 400, body: { error: "Por favor selecciona un archivo ZIP válido" } });

    const fakeZip = new FormData();
    fakeZip.append("eventId", String(event.id));
    fakeZip.append("zipFile", new Blob([Buffer.from("no soy un zip")]), "falso.zip");
    const fake = await api().post("/api/photos/upload-zip", fakeZip);
    expect(fake).toMatchObject({ status: 400, body: { error: "Por favor selecciona un archivo ZIP válido" } });

    const anonymous = await apiClient(dorsal.url).post("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "x.zip",
      size: 10,
    });
    expect(anonymous.status).toBe(401);
    const unknown = await api().get<{ error: string }>("/api/photos/batch-status/0000000000unknownbatch");
    expect(unknown).toMatchObject({ status: 404, body: { error: "Lote ZIP no encontrado" } });
  });
});

/**
 * The same steps driven directly in-process: extracting a ZIP again (a redelivered storage event,
 * or a restart mid-extraction) and settling a photo again (a re-run pipeline step) change nothing.
 */
describe("ZIP import idempotency", () => {
  let standIns: Awaited<ReturnType<typeof startInProcess>>;

  beforeAll(async () => {
    standIns = await startInProcess("ZIP idempotente");
  });
  afterAll(async () => {
    await standIns?.stop();
  });

  const smallZip = async () =>
    makeZip([
      { name: "a.jpg", data: await makeBibPhoto("11", { width: 400, height: 300 }) },
      { name: "b.jpg", data: await makeBibPhoto("22", { width: 400, height: 300 }) },
      { name: "leeme.txt", data: Buffer.from("hola") },
    ]);

  /** A batch whose ZIP is stored but whose storage event nobody handled (this harness has no listener). */
  const storedBatch = async (deps: Deps, eventId: number, zip: Buffer) => {
    const batchId = deps.ids.newId();
    const key = `uploads/zips/${batchId}.zip`;
    const now = new Date().toISOString();
    await deps.zipBatches.create({
      batchId,
      eventId,
      filename: "lote.zip",
      declaredSize: zip.length,
      key,
      uploadedBy: "test",
      ...newBatchFields,
      createdAt: now,
      updatedAt: now,
    });
    await deps.objects.put("originals", key, zip, "application/zip", zip.length);
    return batchId;
  };

  it("creates each photo once and counts each settled photo once", async () => {
    const { container, eventId } = standIns;
    const { deps, logger } = container;
    const zip = await smallZip();
    const batchId = await storedBatch(deps, eventId, zip);

    const first = await importZip(deps, logger, batchId);
    expect(first).toMatchObject({ status: "processing", totalFiles: 3, extractedFiles: 2, skippedFiles: 1 });

    // A run that died after writing every photo, before finishing: the batch still `extracting`,
    // its ZIP still stored. Running it again gives the same photos and the same numbers.
    expect(await deps.objects.head("originals", `uploads/zips/${batchId}.zip`)).toBeUndefined();
    await deps.objects.put("originals", `uploads/zips/${batchId}.zip`, zip, "application/zip", zip.length);
    await deps.table.update({ key: { pk: `ZIPBATCH#${batchId}`, sk: "ZIPBATCH" }, set: { status: "extracting" } });
    const again = await importZip(deps, logger, batchId);
    expect(again).toMatchObject({ status: "processing", totalFiles: 3, extractedFiles: 2, processedFiles: 0 });
    // Once past extraction, a redelivered event is ignored.
    expect(await importZip(deps, logger, batchId)).toMatchObject({ status: "processing", extractedFiles: 2 });
    const listed = await deps.photos.listByEvent(eventId, { unbibbed: false, limit: 100 });
    expect(listed.photos.map((photo) => photo.id).sort()).toEqual([zipPhotoId(batchId, 0), zipPhotoId(batchId, 1)]);

    for (const id of [zipPhotoId(batchId, 0), zipPhotoId(batchId, 0), zipPhotoId(batchId, 0)]) {
      await settleZipPhoto(deps, id);
    }
    expect(await deps.zipBatches.get(batchId)).toMatchObject({ status: "processing", processedFiles: 1 });
    await settleZipPhoto(deps, zipPhotoId(batchId, 1));
    await settleZipPhoto(deps, zipPhotoId(batchId, 1));
    expect(await deps.zipBatches.get(batchId)).toMatchObject({ status: "completed", processedFiles: 2 });
  });

  it("resumes at start-up what was left extracting, or uploaded with its event lost", async () => {
    const { container, eventId } = standIns;
    const { deps, logger } = container;
    const lostEvent = await storedBatch(deps, eventId, await smallZip());
    const interrupted = await storedBatch(deps, eventId, await smallZip());
    await deps.zipBatches.startExtracting(interrupted, new Date());
    const neverUploaded = deps.ids.newId();
    const template = await deps.zipBatches.get(lostEvent);
    if (!template) throw new Error("the stored batch is missing");
    await deps.zipBatches.create({
      ...template,
      batchId: neverUploaded,
      key: `uploads/zips/${neverUploaded}.zip`,
      status: "uploading",
    });

    expect(await resumeZipBatches(deps, logger)).toBe(2);
    for (const batchId of [lostEvent, interrupted]) {
      expect(await deps.zipBatches.get(batchId)).toMatchObject({ status: "processing", extractedFiles: 2 });
    }
    expect(await deps.zipBatches.get(neverUploaded)).toMatchObject({ status: "uploading" });
  });

  it("extracts at most the cap's photos, however many arrive at once, and reports the rest", async () => {
    const { container, eventId } = standIns;
    const { deps, logger } = container;
    const pixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    // More entries than the extraction runs at once, so the cap is met by entries already under way.
    const zip = await makeZip(
      Array.from({ length: 23 }, (_, i) => ({ name: `carrera/${String(i).padStart(5, "0")}.png`, data: pixel })),
    );
    const batchId = await storedBatch(deps, eventId, zip);
    const done = await importZip(deps, logger, batchId, 20);
    expect(done).toMatchObject({ status: "processing", totalFiles: 23, extractedFiles: 20, skippedFiles: 3 });
    expect(done?.skipped.map((entry) => entry.reason)).toEqual(Array(3).fill(zipSkipReasons.tooManyPhotos));
    expect(limits.zipMaxPhotos).toBe(5000);
  });
});

/**
 * The embedded runtime killed in the middle of an extraction resumes it at its next start: every
 * entry ends up as exactly one photo and the batch completes with exact counters.
 */
describe("ZIP size on arrival", () => {
  let dorsal: RunningDorsal;

  beforeAll(async () => {
    dorsal = await startDorsal({ env: { ZIP_MAX_BYTES: String(1024 * 1024) } });
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("ends a batch whose stored ZIP is over ZIP_MAX_BYTES in error, extracting nothing", async () => {
    const api = apiClient(dorsal.url, await adminToken(dorsal));
    const event = (await api.post<EventDto>("/api/events", { name: "ZIP grande", date: "2026-12-20" })).body;
    const zip = await makeZip([{ name: "ruido.jpg", data: Buffer.alloc(2 * 1024 * 1024, 7), compress: false }]);
    const created = await api.post<ZipBatchCreated>("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "pequeno.zip",
      size: 1000,
    });
    expect(created.status).toBe(200);
    await fetch(created.body.url, { method: "PUT", headers: created.body.headers, body: zip });
    const final = await waitFor(
      async () => {
        const now = (await api.get<ZipBatchStatusResponse>(`/api/photos/batch-status/${created.body.batchId}`)).body;
        return now.status === "uploading" ? undefined : now;
      },
      30_000,
      "the batch to leave uploading",
    );
    expect(final).toMatchObject({
      status: "error",
      error: "El archivo es demasiado grande. Máximo permitido: 1MB",
      extractedFiles: 0,
    });
    const declared = await api.post("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "a.zip",
      size: zip.length,
    });
    expect(declared).toMatchObject({
      status: 413,
      body: { error: "El archivo es demasiado grande. Máximo permitido: 1MB" },
    });
  });
});
