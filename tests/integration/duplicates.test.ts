import {
  type EventDeletionDto,
  type EventDto,
  messages,
  type PhotoDto,
  type PhotoPage,
  type PresignResponse,
  type SearchResponse,
  type UploadDetailDto,
  type UploadHistoryDto,
  type UploadResponse,
  type UploadSummaryDto,
  type UploadTarget,
  type ZipBatchCreated,
} from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, deletionFinished, photographerClient, waitFor } from "../support/api";
import { sharedDorsal } from "../support/server";

/**
 * Duplicates by content, over HTTP against the embedded runtime: the same bytes uploaded twice to
 * an event are processed once; the copy ends as `duplicate`, unless the upload asked to keep it.
 * The upload screen's uploads ("subidas") report them as such, count only what their uploader
 * sent, show each uploader only their own; an admin removes a duplicate record.
 */
describe("duplicates by content hash", () => {
  const dorsal = sharedDorsal();
  let token: string;
  let event: EventDto;
  let photo: Buffer;

  beforeAll(async () => {
    token = await adminToken(dorsal);
    const created = await apiClient(dorsal.url, token).post<EventDto>("/api/events", {
      name: "Carrera de los duplicados",
      date: "2026-10-11",
    });
    event = created.body;
    photo = await makeBibPhoto("733");
  });

  const api = () => apiClient(dorsal.url, token);
  /** The admin's latest uploads to this suite's event: the runtime is shared, and so is its admin. */
  const adminUploadsHere = async () =>
    (await api().get<UploadHistoryDto>("/api/photos/my-uploads?limit=20")).body.uploads.filter(
      (item) => item.eventId === event.id,
    );
  const eventNow = async () => (await apiClient(dorsal.url).get<EventDto>(`/api/events/${event.id}`)).body;
  const photoNow = async (id: string) => (await api().get<PhotoDto>(`/api/photos/${id}`)).body;
  const settled = (id: string) =>
    waitFor(
      async () => {
        const current = await photoNow(id);
        return ["successful", "failed", "duplicate"].includes(current.processingStatus) ? current : undefined;
      },
      60_000,
      `photo ${id} to settle`,
    );
  const presignAndPut = async (forceDuplicates?: boolean) => {
    const presigned = await api().post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: [{ filename: "meta-733.jpg", contentType: "image/jpeg", size: photo.length }],
      ...(forceDuplicates === undefined ? {} : { forceDuplicates }),
    });
    expect(presigned.status).toBe(200);
    const [upload] = presigned.body.uploads;
    if (!upload) throw new Error("no presigned upload returned");
    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: photo });
    expect(put.status).toBe(200);
    return upload.photoId;
  };
  const search = async () =>
    (await apiClient(dorsal.url).get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=733`)).body;

  let firstId: string;

  it("processes the first copy and ends the second as a duplicate of it", async () => {
    firstId = await presignAndPut();
    expect(await settled(firstId)).toMatchObject({ processingStatus: "successful", processed: true });

    const secondId = await presignAndPut();
    const second = await settled(secondId);
    expect(second).toMatchObject({ processingStatus: "duplicate", processed: false, detectedDorsals: [] });
    expect(second.thumbnailUrl).toBeNull();

    const found = await search();
    expect(found.photos.map((p) => p.id)).toEqual([firstId]);
    expect(await eventNow()).toMatchObject({ totalPhotos: 2, photoCount: 1, failedPhotos: 0, duplicatePhotos: 1 });
  });

  it("keeps a copy when the upload forces it, by presign flag or multipart field", async () => {
    const presignedId = await presignAndPut(true);
    expect(await settled(presignedId)).toMatchObject({ processingStatus: "successful", detectedDorsals: ["733"] });

    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("forceDuplicates", "true");
    form.append("photos", new Blob([photo], { type: "image/jpeg" }), "otra-733.jpg");
    const uploaded = await api().post<UploadResponse>("/api/photos/upload", form);
    expect(uploaded.status).toBe(200);
    // Hashing happens in the pipeline, so the response cannot know yet; the photo's status tells later.
    expect(uploaded.body.performance.duplicates).toBe(0);
    const [dto] = uploaded.body.photos;
    if (!dto) throw new Error("no photo in the upload response");
    expect(await settled(dto.id)).toMatchObject({ processingStatus: "successful" });

    expect((await search()).totalFound).toBe(3);
    expect(await eventNow()).toMatchObject({ totalPhotos: 4, photoCount: 3, failedPhotos: 0, duplicatePhotos: 1 });
  });

  it("ends an unforced multipart copy as a duplicate too", async () => {
    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("photos", new Blob([photo], { type: "image/jpeg" }), "copia-733.jpg");
    const uploaded = await api().post<UploadResponse>("/api/photos/upload", form);
    const [dto] = uploaded.body.photos;
    if (!dto) throw new Error("no photo in the upload response");
    expect(await settled(dto.id)).toMatchObject({ processingStatus: "duplicate" });
    expect(await photoNow(firstId)).toMatchObject({ processingStatus: "successful" });
    expect(await eventNow()).toMatchObject({ totalPhotos: 5, photoCount: 3, duplicatePhotos: 2 });
  });

  let upload: UploadSummaryDto;
  let copyId: string;
  const uploadNow = async (client = api()) =>
    (await client.get<UploadDetailDto>(`/api/photos/my-uploads/${upload.uploadId}`)).body;
  /** Registers one file of an upload as the upload screen does, and sends its bytes unless told not to. */
  const sendFile = async (file: { name: string; key: string; bytes: Buffer }, send = true) => {
    const target = await api().post<UploadTarget>("/api/photos/uploads", {
      kind: "photo",
      eventId: event.id,
      filename: file.name,
      contentType: "image/jpeg",
      size: file.bytes.length,
      multipart: false,
      upload: { uploadId: upload.uploadId, fileKey: file.key },
    });
    expect(target.status).toBe(200);
    if (send) {
      const put = await fetch(target.body.url, { method: "PUT", headers: target.body.headers, body: file.bytes });
      expect(put.status).toBe(200);
    }
    return target.body.photoId ?? "";
  };

  it("follows an upload of the upload screen: a fixed total, what arrived, the duplicate named as such", async () => {
    const started = await api().post<UploadSummaryDto>("/api/photos/my-uploads", { eventId: event.id, fileCount: 3 });
    expect(started.status).toBe(201);
    upload = started.body;
    expect(upload).toMatchObject({ eventId: event.id, eventName: event.name, fileCount: 3, receivedPhotos: 0 });

    const fresh = { name: "nueva-734.jpg", key: "uppy-nueva-734", bytes: await makeBibPhoto("734") };
    // A first try whose bytes never arrive, then the retry of the same file: it counts once.
    await sendFile(fresh, false);
    await sendFile(fresh);
    copyId = await sendFile({ name: "otra-vez-733.jpg", key: "uppy-otra-vez-733", bytes: photo });
    // The third chosen file is never sent (the upload was cancelled): the total stays 3.

    const done = await waitFor(
      async () => {
        const current = await uploadNow();
        return current.receivedPhotos === 2 && current.pendingPhotos === 0 ? current : undefined;
      },
      60_000,
      "the upload's two photos to settle",
    );
    expect(done).toMatchObject({
      fileCount: 3,
      receivedPhotos: 2,
      processedPhotos: 1,
      duplicatePhotos: 1,
      failedPhotos: 0,
      pendingPhotos: 0,
      failures: [],
      duplicates: [{ photoId: copyId, originalFilename: "otra-vez-733.jpg", duplicateOfFilename: "meta-733.jpg" }],
    });

    const history = await adminUploadsHere();
    expect(history.map((item) => item.uploadId)).toEqual([upload.uploadId]);
    expect(history[0]).toMatchObject({ kind: "photos", receivedPhotos: 2, processedPhotos: 1, duplicatePhotos: 1 });
  });

  it("lists a ZIP among its uploader's uploads, counted by its batch", async () => {
    const batch = await api().post<ZipBatchCreated>("/api/photos/zip-batches", {
      eventId: event.id,
      filename: "carrera.zip",
      size: 1000,
    });
    expect(batch.status).toBe(200);
    const history = await adminUploadsHere();
    expect(history.map((item) => item.uploadId)).toEqual([batch.body.batchId, upload.uploadId]);
    expect(history[0]).toEqual({
      kind: "zip",
      fromDrive: false,
      uploadId: batch.body.batchId,
      eventId: event.id,
      eventName: event.name,
      createdAt: expect.any(String),
      fileName: "carrera.zip",
      status: "uploading",
      totalFiles: 0,
      extractedFiles: 0,
      processedFiles: 0,
      skippedFiles: 0,
    });
    // A ZIP is followed through its batch, and photos are not sent into it.
    expect((await api().get(`/api/photos/my-uploads/${batch.body.batchId}`)).status).toBe(404);
    const intoZip = await api().post("/api/photos/uploads", {
      kind: "photo",
      eventId: event.id,
      filename: "suelta.jpg",
      contentType: "image/jpeg",
      size: 100,
      multipart: false,
      upload: { uploadId: batch.body.batchId, fileKey: "suelta" },
    });
    expect(intoZip).toMatchObject({ status: 404, body: { error: messages.uploadNotFound } });
  });

  it("shows the admin's review a duplicate with the photo it copies, not as a photo still to process", async () => {
    const listed = (await api().get<PhotoPage>(`/api/events/${event.id}/photos?limit=100`)).body.photos;
    const copy = listed.find((item) => item.id === copyId);
    expect(copy).toMatchObject({
      processingStatus: "duplicate",
      duplicateOf: { id: firstId, originalFilename: "meta-733.jpg" },
    });
    expect(copy?.thumbnailUrl).toEqual(expect.any(String));
  });

  it("shows each uploader only their own uploads, and checks what they send", async () => {
    const photographer = await photographerClient(dorsal.url, api(), {
      name: "Fotógrafa Duplicados",
      email: "duplicados.foto@dorsal.test",
      password: "secreto1",
      eventId: event.id,
    });
    const own = await photographer.post<UploadSummaryDto>("/api/photos/my-uploads", {
      eventId: event.id,
      fileCount: 1,
    });
    expect(own.status).toBe(201);

    const history = (await photographer.get<UploadHistoryDto>("/api/photos/my-uploads")).body.uploads;
    expect(history.map((item) => item.uploadId)).toEqual([own.body.uploadId]);
    expect((await photographer.get(`/api/photos/my-uploads/${upload.uploadId}`)).status).toBe(404);
    const intoOthers = await photographer.post("/api/photos/uploads", {
      kind: "photo",
      eventId: event.id,
      filename: "ajena.jpg",
      contentType: "image/jpeg",
      size: 100,
      multipart: false,
      upload: { uploadId: upload.uploadId, fileKey: "ajena" },
    });
    expect(intoOthers).toMatchObject({ status: 404, body: { error: messages.uploadNotFound } });

    const other = (await api().post<EventDto>("/api/events", { name: "Carrera ajena", date: "2026-10-18" })).body;
    expect((await photographer.post("/api/photos/my-uploads", { eventId: other.id, fileCount: 1 })).status).toBe(403);
    // An upload is for one event: a photo for another one is refused.
    const wrongEvent = await api().post("/api/photos/uploads", {
      kind: "photo",
      eventId: other.id,
      filename: "otra.jpg",
      contentType: "image/jpeg",
      size: 100,
      multipart: false,
      upload: { uploadId: upload.uploadId, fileKey: "otra" },
    });
    expect(wrongEvent).toMatchObject({ status: 400, body: { error: messages.uploadOtherEvent } });
    expect(await api().post("/api/photos/my-uploads", { eventId: event.id, fileCount: 0 })).toMatchObject({
      status: 400,
      body: { error: messages.selectPhoto },
    });
    expect(await api().post("/api/photos/my-uploads", { eventId: event.id, fileCount: 5001 })).toMatchObject({
      status: 400,
      body: { error: messages.uploadTooManyFiles },
    });
    expect((await api().get("/api/photos/my-uploads/NO-VALE")).status).toBe(400);
  });

  it("removes a duplicate for an admin, once, and nothing that is not one", async () => {
    const before = await eventNow();
    const removed = await api().delete(`/api/events/${event.id}/photos/${copyId}`);
    expect(removed).toMatchObject({ status: 200, body: { removed: true, photoId: copyId } });
    expect(await eventNow()).toMatchObject({
      totalPhotos: before.totalPhotos - 1,
      duplicatePhotos: before.duplicatePhotos - 1,
      photoCount: before.photoCount,
    });
    expect((await api().get(`/api/photos/${copyId}`)).status).toBe(404);
    expect((await api().delete(`/api/events/${event.id}/photos/${copyId}`)).status).toBe(404);

    const processed = await api().delete(`/api/events/${event.id}/photos/${firstId}`);
    expect(processed).toMatchObject({ status: 409, body: { error: messages.onlyDuplicatesRemovable } });
    expect(await photoNow(firstId)).toMatchObject({ processingStatus: "successful" });
    // The upload still tells what happened to what was sent.
    expect(await uploadNow()).toMatchObject({ duplicatePhotos: 1, processedPhotos: 1 });
  });

  it("deletes the event's uploads with the event", async () => {
    const deleted = await api().request<EventDeletionDto>("DELETE", `/api/events/${event.id}`, {
      adminPassword: dorsal.adminPassword,
    });
    expect(deleted.status).toBe(202);
    // The admin's upload and ZIP, and the photographer's upload.
    expect((await deletionFinished(api(), event.id)).deleted.uploads).toBe(3);
    expect((await api().get(`/api/photos/my-uploads/${upload.uploadId}`)).status).toBe(404);
    expect(await adminUploadsHere()).toEqual([]);
  });
});
