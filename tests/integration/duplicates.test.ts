import type { EventDto, PhotoDto, PresignResponse, SearchResponse, UploadResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient, waitFor } from "../support/api";
import { makeBibPhoto } from "../support/bib-photo";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Duplicates by content, over HTTP against the embedded runtime: the same bytes uploaded twice to
 * an event are processed once; the copy ends as `duplicate`, unless the upload asked to keep it.
 */
describe("duplicates by content hash", () => {
  let dorsal: RunningDorsal;
  let token: string;
  let event: EventDto;
  let photo: Buffer;

  beforeAll(async () => {
    dorsal = await startDorsal();
    token = await adminToken(dorsal);
    const created = await apiClient(dorsal.url, token).post<EventDto>("/api/events", {
      name: "Carrera de los duplicados",
      date: "2026-10-11",
    });
    event = created.body;
    photo = await makeBibPhoto("733");
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  const api = () => apiClient(dorsal.url, token);
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
});
