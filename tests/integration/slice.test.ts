import type { EventDto, PhotoDto, PresignResponse, SearchResponse, UploadResponse } from "@dorsal/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { apiClient, waitFor } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The foundation slice, end to end over HTTP against the embedded runtime: sign in, create an
 * event, upload both ways, let the pipeline read the bibs, find the photos by bib.
 */
describe("slice: login → event → upload → pipeline → search", () => {
  let dorsal: RunningDorsal;
  let token: string;
  let event: EventDto;

  beforeAll(async () => {
    dorsal = await startDorsal();
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  const searchFor = (bib: string) =>
    apiClient(dorsal.url).get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`);

  it("logs the admin in with {success, token, user}", async () => {
    const { status, body } = await apiClient(dorsal.url).post<{
      success: boolean;
      token: string;
      user: { role: string };
    }>("/api/auth/login", { email: dorsal.adminEmail, password: dorsal.adminPassword });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.user.role).toBe("admin");
    token = body.token;
  });

  it("refuses a wrong password with the spec's message", async () => {
    const { status, body } = await apiClient(dorsal.url).post("/api/auth/login", {
      email: dorsal.adminEmail,
      password: "no-es-la-clave",
    });
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: "Credenciales inválidas" });
  });

  it("creates an event (admin only) and lists it publicly", async () => {
    const anonymous = await apiClient(dorsal.url).post("/api/events", { name: "x", date: "2026-11-29" });
    expect(anonymous.status).toBe(401);
    const invalid = await apiClient(dorsal.url, token).post("/api/events", { name: "Sin fecha" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ success: false, error: "La fecha es obligatoria" });

    const created = await apiClient(dorsal.url, token).post<EventDto>("/api/events", {
      name: "Media Maratón de Bogotá",
      date: "2026-11-29",
      location: "Bogotá",
      expectedParticipants: 5000,
    });
    expect(created.status).toBe(201);
    event = created.body;
    expect(event).toMatchObject({ name: "Media Maratón de Bogotá", status: "active", freePhotosEnabled: false });
    const list = await apiClient(dorsal.url).get<EventDto[]>("/api/events");
    expect(list.body.map((e) => e.id)).toContain(event.id);
  });

  it("uploads straight to the object store with a presigned URL and finds the photo by bib", async () => {
    const photo = await makeBibPhoto("4821");
    const presigned = await apiClient(dorsal.url, token).post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: [{ filename: "meta-4821.jpg", contentType: "image/jpeg", size: photo.length }],
    });
    expect(presigned.status).toBe(200);
    const [upload] = presigned.body.uploads;
    if (!upload) throw new Error("no presigned upload returned");
    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: photo });
    expect(put.status).toBe(200);

    const found = await waitFor(
      async () => {
        const result = await searchFor("4821");
        return result.body.totalFound > 0 ? result.body : undefined;
      },
      60_000,
      "bib 4821 to become searchable",
    );
    expect(found.dorsalNumber).toBe("4821");
    expect(found.photos).toHaveLength(1);
    const [hit] = found.photos;
    expect(hit).toMatchObject({ id: upload.photoId, originalFilename: "meta-4821.jpg", processed: true });
    expect(hit?.detectedDorsals).toContain("4821");

    // The URLs load the images directly, at the sizes the pipeline promises: the public search gets
    // the paid event's watermarked preview (1280 px), the admin the clean web copy (the photo's 1600 px).
    expect(hit?.previewKind).toBe("watermarked");
    const admin = await apiClient(dorsal.url, token).get<PhotoDto>(`/api/photos/${upload.photoId}`);
    expect(admin.body.previewKind).toBe("clean");
    for (const [url, longSide] of [
      [hit?.thumbnailUrl, 400],
      [hit?.webUrl, 1280],
      [admin.body.thumbnailUrl, 400],
      [admin.body.webUrl, 1600],
    ] as const) {
      if (!url) throw new Error("photo without image URL");
      const image = await fetch(url);
      expect(image.status).toBe(200);
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(longSide);
    }
  });

  it("uploads through the multipart endpoint, skipping a file that is not an image", async () => {
    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("photos", new Blob([await makeBibPhoto("377")], { type: "image/jpeg" }), "llegada-377.jpg");
    form.append("photos", new Blob(["<html>no soy una foto</html>"], { type: "image/jpeg" }), "falsa.jpg");
    const anonymous = await apiClient(dorsal.url).post("/api/photos/upload", form);
    expect(anonymous.status).toBe(401);

    const { status, body } = await apiClient(dorsal.url, token).post<UploadResponse>("/api/photos/upload", form);
    expect(status).toBe(200);
    expect(body.uploaded).toBe(1);
    expect(body.failed).toBe(1);
    expect(body.performance.errors[0]).toContain("falsa.jpg");

    const found = await waitFor(
      async () => {
        const result = await searchFor("377");
        return result.body.totalFound > 0 ? result.body : undefined;
      },
      60_000,
      "bib 377 to become searchable",
    );
    expect(found.photos[0]?.originalFilename).toBe("llegada-377.jpg");
  });

  it("counts the processed photos on the event and the dashboard", async () => {
    const current = await apiClient(dorsal.url).get<EventDto>(`/api/events/${event.id}`);
    expect(current.body).toMatchObject({ photoCount: 2, totalPhotos: 2, failedPhotos: 0 });
    const stats = await apiClient(dorsal.url, token).get("/api/dashboard/stats");
    expect(stats.body).toMatchObject({ activeEvents: 1, processedPhotos: 2, detectedDorsals: 2 });
  });

  it("answers a bib with no photos with an empty result, and an unknown event with 404", async () => {
    expect((await searchFor("999")).body).toMatchObject({ totalFound: 0, photos: [] });
    const missing = await apiClient(dorsal.url).get("/api/photos/search?eventId=9999&dorsalNumber=1");
    expect(missing.status).toBe(404);
    const incomplete = await apiClient(dorsal.url).get(`/api/photos/search?eventId=${event.id}`);
    expect(incomplete.status).toBe(400);
  });
});
