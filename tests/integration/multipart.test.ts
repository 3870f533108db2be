import type {
  EventDto,
  PhotoDto,
  SearchResponse,
  UploadResponse,
  UploadSignature,
  UploadSignRequest,
  UploadTarget,
  UploadTargetRequest,
  ZipBatchCreated,
  ZipBatchStatusResponse,
} from "@dorsal/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, photographerClient, waitFor } from "../support/api";
import { makeBigBibPhoto } from "../support/big-photo";
import { sharedDorsal } from "../support/server";
import { makeZip } from "../support/zip";

type Client = ReturnType<typeof apiClient>;

/** S3's smallest part but the last; the browser's uploader never goes below it either. */
const partSize = 5 * 1024 * 1024;

/**
 * Browser uploads straight to the object store, as Uppy's `@uppy/aws-s3` makes them: the API
 * registers the upload and signs each S3 request; the requests themselves go to the object store
 * (s3rver on the app's port, with ListParts/Abort added in front of it).
 */
describe("direct uploads: presigned PUT and resumable multipart", () => {
  const dorsal = sharedDorsal();
  let admin: Client;
  let event: EventDto;

  beforeAll(async () => {
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Maratón Multiparte", date: "2026-12-06" })).body;
  });
  const start = async (client: Client, request: UploadTargetRequest) => {
    const started = await client.post<UploadTarget>("/api/photos/uploads", request);
    expect(started.status).toBe(200);
    return started.body;
  };
  const sign = (client: Client, request: UploadSignRequest) =>
    client.post<UploadSignature>("/api/photos/uploads/sign", request);
  const signed = async (client: Client, request: UploadSignRequest) => {
    const answer = await sign(client, request);
    expect(answer.status).toBe(200);
    return answer.body.url;
  };

  const createMultipart = async (target: UploadTarget) => {
    const response = await fetch(target.url, { method: "POST", headers: target.headers });
    expect(response.status).toBe(200);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await response.text())?.[1];
    if (!uploadId) throw new Error("no UploadId in the CreateMultipartUpload answer");
    return uploadId;
  };
  const putPart = async (client: Client, key: string, uploadId: string, partNumber: number, bytes: Buffer) => {
    const url = await signed(client, { step: "part", key, uploadId, partNumber });
    const response = await fetch(url, { method: "PUT", body: bytes });
    expect(response.status).toBe(200);
    const etag = response.headers.get("etag");
    if (!etag) throw new Error(`part ${partNumber} came back without an ETag`);
    return etag.replaceAll('"', "");
  };
  const listParts = async (client: Client, key: string, uploadId: string) => {
    const response = await fetch(await signed(client, { step: "list", key, uploadId }));
    const xml = await response.text();
    const parts = [
      ...xml.matchAll(/<Part><PartNumber>(\d+)<\/PartNumber>.*?<ETag>"?([^<"]+)"?<\/ETag><Size>(\d+)<\/Size><\/Part>/g),
    ];
    return {
      status: response.status,
      xml,
      parts: parts.map((match) => ({ partNumber: Number(match[1]), etag: match[2], size: Number(match[3]) })),
    };
  };
  const complete = async (client: Client, key: string, uploadId: string, etags: string[]) => {
    const body = `<CompleteMultipartUpload>${etags
      .map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>"${etag}"</ETag></Part>`)
      .join("")}</CompleteMultipartUpload>`;
    const response = await fetch(await signed(client, { step: "complete", key, uploadId }), {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<CompleteMultipartUploadResult>");
  };
  const parts = (bytes: Buffer) =>
    Array.from({ length: Math.ceil(bytes.length / partSize) }, (_, index) =>
      bytes.subarray(index * partSize, (index + 1) * partSize),
    );

  const settled = (photoId: string) =>
    waitFor(
      async () => {
        const photo = (await admin.get<PhotoDto>(`/api/photos/${photoId}`)).body;
        return ["successful", "failed", "duplicate"].includes(photo.processingStatus) ? photo : undefined;
      },
      120_000,
      `photo ${photoId} to settle`,
    );
  const search = async (bib: string) =>
    (await apiClient(dorsal.url).get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`))
      .body;

  it("takes a photo by one presigned PUT and processes it", async () => {
    const photo = await makeBibPhoto("3141");
    const target = await start(admin, {
      kind: "photo",
      eventId: event.id,
      filename: "pequeña.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: false,
    });
    expect(target.key).toBe(`eventos/${event.id}/originales/${target.photoId}.jpg`);
    const put = await fetch(target.url, { method: "PUT", headers: target.headers, body: photo });
    expect(put.status).toBe(200);
    expect(await settled(target.photoId as string)).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["3141"],
      originalFilename: "pequeña.jpg",
    });
    expect((await search("3141")).photos.map((p) => p.id)).toEqual([target.photoId]);
  });

  it("takes a photo over 10 MB in several parts, and the photo is processed and found", async () => {
    const photo = await makeBigBibPhoto("2718");
    expect(photo.length).toBeGreaterThan(10 * 1024 * 1024);
    expect((await sharp(photo).metadata()).format).toBe("jpeg");
    const target = await start(admin, {
      kind: "photo",
      eventId: event.id,
      filename: "grande.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: true,
    });
    const uploadId = await createMultipart(target);
    const chunks = parts(photo);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const etags: string[] = [];
    for (const [index, chunk] of chunks.entries())
      etags.push(await putPart(admin, target.key, uploadId, index + 1, chunk));
    await complete(admin, target.key, uploadId, etags);

    expect(await settled(target.photoId as string)).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["2718"],
    });
    expect((await search("2718")).photos.map((p) => p.id)).toEqual([target.photoId]);
  });

  it("resumes an interrupted multipart upload from the parts the store already has", async () => {
    const photo = await makeBigBibPhoto("1618");
    const chunks = parts(photo);
    const target = await start(admin, {
      kind: "photo",
      eventId: event.id,
      filename: "reanudada.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: true,
    });
    const uploadId = await createMultipart(target);
    const firstEtag = await putPart(admin, target.key, uploadId, 1, chunks[0] as Buffer);

    // The connection drops and the tab is gone: a new session knows only what Uppy kept (key and upload id).
    const later = apiClient(dorsal.url, await adminToken(dorsal));
    const listed = await listParts(later, target.key, uploadId);
    expect(listed.status).toBe(200);
    expect(listed.parts).toEqual([{ partNumber: 1, etag: firstEtag, size: partSize }]);

    const etags = [firstEtag];
    for (const [index, chunk] of chunks.entries()) {
      if (index === 0) continue;
      etags.push(await putPart(later, target.key, uploadId, index + 1, chunk));
    }
    await complete(later, target.key, uploadId, etags);
    expect(await settled(target.photoId as string)).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["1618"],
    });
  });

  it("aborts a multipart upload: its parts are gone and it cannot be completed", async () => {
    const photo = await makeBibPhoto("404");
    const target = await start(admin, {
      kind: "photo",
      eventId: event.id,
      filename: "cancelada.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: true,
    });
    const uploadId = await createMultipart(target);
    await putPart(admin, target.key, uploadId, 1, photo);
    const aborted = await fetch(await signed(admin, { step: "abort", key: target.key, uploadId }), {
      method: "DELETE",
    });
    expect(aborted.status).toBe(204);

    const listed = await listParts(admin, target.key, uploadId);
    expect(listed.status).toBe(404);
    expect(listed.xml).toContain("<Code>NoSuchUpload</Code>");
    const part = await fetch(await signed(admin, { step: "part", key: target.key, uploadId, partNumber: 2 }), {
      method: "PUT",
      body: photo,
    });
    expect(part.status).toBe(404);
    const photoNow = (await admin.get<PhotoDto>(`/api/photos/${target.photoId}`)).body;
    expect(photoNow.processingStatus).toBe("pending");
  });

  it("signs nothing for an upload that is not the caller's, nor for arbitrary keys", async () => {
    const photo = await makeBibPhoto("777");
    const target = await start(admin, {
      kind: "photo",
      eventId: event.id,
      filename: "ajena.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: true,
    });
    const uploadId = await createMultipart(target);

    const intruder = await photographerClient(dorsal.url, admin, {
      name: "Fotógrafo Intruso",
      email: "intruso@dorsal.test",
      password: "clave-intrusa",
      eventId: event.id,
    });

    for (const request of [
      { step: "part", key: target.key, uploadId, partNumber: 1 },
      { step: "list", key: target.key, uploadId },
      { step: "complete", key: target.key, uploadId },
      { step: "abort", key: target.key, uploadId },
    ] as const) {
      expect((await sign(intruder, request)).status).toBe(404);
    }
    // Keys nobody registered, or that are not uploads at all.
    expect(
      (
        await sign(admin, {
          step: "part",
          key: `eventos/${event.id}/originales/zzzzzzzzzzzz.jpg`,
          uploadId,
          partNumber: 1,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await sign(admin, {
          step: "part",
          key: `eventos/${event.id}/web/${target.photoId}.jpg`,
          uploadId,
          partNumber: 1,
        })
      ).status,
    ).toBe(400);
    expect((await sign(apiClient(dorsal.url), { step: "list", key: target.key, uploadId })).status).toBe(401);

    // The intruder's own upload id cannot reach into the admin's upload through their own key either.
    const own = await start(intruder, {
      kind: "photo",
      eventId: event.id,
      filename: "propia.jpg",
      contentType: "image/jpeg",
      size: photo.length,
      multipart: true,
    });
    const hijack = await fetch(await signed(intruder, { step: "part", key: own.key, uploadId, partNumber: 1 }), {
      method: "PUT",
      body: photo,
    });
    expect(hijack.status).toBe(404);
    expect((await listParts(admin, target.key, uploadId)).parts).toEqual([]);
  });

  it("refuses a photo declared over 50 MB before anything is stored", async () => {
    const tooBig = await admin.post("/api/photos/uploads", {
      kind: "photo",
      eventId: event.id,
      filename: "enorme.jpg",
      contentType: "image/jpeg",
      size: 51 * 1024 * 1024,
      multipart: true,
    });
    expect(tooBig).toMatchObject({
      status: 413,
      body: {
        success: false,
        error: "Error 413: Archivos demasiado grandes. Intenta subir fotos más pequeñas o reduce la cantidad.",
      },
    });
    const noEvent = await admin.post("/api/photos/uploads", {
      kind: "photo",
      eventId: 999_999,
      filename: "a.jpg",
      contentType: "image/jpeg",
      size: 10,
      multipart: false,
    });
    expect(noEvent.status).toBe(404);
  });

  it("takes a ZIP batch's archive by multipart upload into the batch's own key", async () => {
    const zip = await makeZip([
      { name: "carrera/1.jpg", data: await makeBibPhoto("5150") },
      { name: "carrera/2.jpg", data: await makeBibPhoto("5151") },
    ]);
    const batch = await admin.post<ZipBatchCreated>("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "carrera.zip",
      size: zip.length,
    });
    expect(batch.status).toBe(200);
    const target = await start(admin, { kind: "zip", batchId: batch.body.batchId, multipart: true });
    expect(target).toMatchObject({ key: batch.body.key, photoId: null });
    const uploadId = await createMultipart(target);
    await complete(admin, target.key, uploadId, [await putPart(admin, target.key, uploadId, 1, zip)]);

    const done = await waitFor(
      async () => {
        const status = (await admin.get<ZipBatchStatusResponse>(`/api/photos/batch-status/${batch.body.batchId}`)).body;
        return status.status === "completed" || status.status === "error" ? status : undefined;
      },
      120_000,
      "the ZIP batch to finish",
    );
    expect(done).toMatchObject({ status: "completed", totalFiles: 2, extractedFiles: 2, processedFiles: 2 });
    // Its bytes arrived: the batch is the pipeline's now, and its key takes no new upload.
    expect(
      (await admin.post("/api/photos/uploads", { kind: "zip", batchId: batch.body.batchId, multipart: true })).status,
    ).toBe(404);
  });

  it("keeps the spec's form endpoints: upload with a session, resume it without storing twice, and the mobile fallback", async () => {
    const first = await makeBibPhoto("6001");
    const second = await makeBibPhoto("6002");
    const form = (files: [string, Buffer][], fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      for (const [name, data] of files) body.append("photos", new Blob([data], { type: "image/jpeg" }), name);
      return body;
    };

    const noSession = await admin.post(
      "/api/photos/resume-upload",
      form([["a.jpg", first]], { eventId: String(event.id) }),
    );
    expect(noSession).toMatchObject({ status: 400, body: { error: "No hay sesión activa para reanudar" } });

    const sessionId = "sesion-de-prueba-01";
    const noEvent = await admin.post("/api/photos/resume-upload", form([["a.jpg", first]], { sessionId }));
    expect(noEvent).toMatchObject({ status: 400, body: { error: "Selecciona un evento para reanudar la subida" } });

    const run = await admin.post<UploadResponse>(
      "/api/photos/upload",
      form([["primera.jpg", first]], { eventId: String(event.id), sessionId }),
    );
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ uploaded: 1, failed: 0, sessionId });
    const firstId = run.body.photos[0]?.id as string;

    const resumed = await admin.post<UploadResponse>(
      "/api/photos/resume-upload",
      form(
        [
          ["primera.jpg", first],
          ["segunda.jpg", second],
        ],
        { eventId: String(event.id), sessionId },
      ),
    );
    expect(resumed.status).toBe(200);
    expect(resumed.body.performance).toMatchObject({ successful: 2, failed: 0 });
    const resumedIds = resumed.body.photos.map((photo) => photo.id);
    expect(resumedIds[0]).toBe(firstId);
    const secondId = resumedIds[1] as string;
    expect(secondId).not.toBe(firstId);
    expect(await settled(firstId)).toMatchObject({ processingStatus: "successful", detectedDorsals: ["6001"] });
    expect(await settled(secondId)).toMatchObject({ processingStatus: "successful", detectedDorsals: ["6002"] });
    expect((await search("6001")).photos.map((p) => p.id)).toEqual([firstId]);

    const emergency = await admin.post<UploadResponse>(
      "/api/emergency/mobile-upload",
      form([["movil.jpg", await makeBibPhoto("6003")]], { eventId: String(event.id) }),
    );
    expect(emergency.status).toBe(200);
    expect(emergency.body).toMatchObject({ uploaded: 1, failed: 0 });
    expect(await settled(emergency.body.photos[0]?.id as string)).toMatchObject({ detectedDorsals: ["6003"] });

    const anonymous = await apiClient(dorsal.url).post(
      "/api/emergency/mobile-upload",
      form([["x.jpg", first]], { eventId: String(event.id) }),
    );
    expect(anonymous.status).toBe(401);
  });
});
