import type { EventDto, PhotoDto, PresignResponse, SearchResponse } from "@dorsal/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { sharedDorsal } from "../support/server";

const fetchImage = async (url: string | null | undefined) => {
  if (!url) throw new Error("photo without image URL");
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

/**
 * Mean absolute difference per channel between two images, over each cell of a 4 × 4 grid;
 * `clean` is scaled to `marked`'s size first.
 */
async function cellDifferences(marked: Buffer, clean: Buffer): Promise<number[]> {
  const a = await sharp(marked).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(clean).resize(a.info.width, a.info.height, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const { width, height, channels } = a.info;
  const sums = new Array<number>(16).fill(0);
  const counts = new Array<number>(16).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = Math.floor((y * 4) / height) * 4 + Math.floor((x * 4) / width);
      for (let c = 0; c < channels; c++) {
        const i = (y * width + x) * channels + c;
        sums[cell] = (sums[cell] ?? 0) + Math.abs((a.data[i] ?? 0) - (b[i] ?? 0));
      }
      counts[cell] = (counts[cell] ?? 0) + channels;
    }
  }
  return sums.map((sum, index) => sum / (counts[index] ?? 1));
}

/**
 * The public never gets a paid event's clean copy: search shows the watermarked preview, the
 * admin views the clean one, and switching the event's free photos shows the GRATIS/DEMO copy at
 * once, without reprocessing.
 */
describe("previews: watermarked for paid events, GRATIS/DEMO for free ones", () => {
  const dorsal = sharedDorsal();
  let token: string;
  let event: EventDto;
  let photoId: string;
  let clean: Buffer;
  let preview: Buffer;

  const search = async () => {
    const { status, body } = await apiClient(dorsal.url).get<SearchResponse>(
      `/api/photos/search?eventId=${event.id}&dorsalNumber=5173`,
    );
    expect(status).toBe(200);
    expect(body.photos).toHaveLength(1);
    return body.photos[0] as PhotoDto;
  };

  beforeAll(async () => {
    token = await adminToken(dorsal);
    event = (
      await apiClient(dorsal.url, token).post<EventDto>("/api/events", {
        name: "Carrera de la Mujer",
        date: "2026-09-13",
        location: "Medellín",
      })
    ).body;

    const photo = await makeBibPhoto("5173");
    const presigned = await apiClient(dorsal.url, token).post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: [{ filename: "meta-5173.jpg", contentType: "image/jpeg", size: photo.length }],
    });
    const [upload] = presigned.body.uploads;
    if (!upload) throw new Error("no presigned upload returned");
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: photo })).status).toBe(200);
    photoId = upload.photoId;
    await waitFor(
      async () => {
        const result = await apiClient(dorsal.url).get<SearchResponse>(
          `/api/photos/search?eventId=${event.id}&dorsalNumber=5173`,
        );
        return result.body.totalFound > 0 ? true : undefined;
      },
      60_000,
      "bib 5173 to become searchable",
    );
  });
  it("gives the admin the clean web copy of the photo", async () => {
    const { status, body } = await apiClient(dorsal.url, token).get<PhotoDto>(`/api/photos/${photoId}`);
    expect(status).toBe(200);
    expect(body.previewKind).toBe("clean");
    clean = await fetchImage(body.webUrl);
    const meta = await sharp(clean).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1600, 1200]);

    const list = await apiClient(dorsal.url, token).get<{ photos: PhotoDto[] }>(`/api/events/${event.id}/photos`);
    expect(list.body.photos.map((p) => [p.id, p.previewKind])).toEqual([[photoId, "clean"]]);
  });

  it("shows the public search a 1280-px watermarked preview that differs from the clean copy everywhere", async () => {
    const hit = await search();
    expect(hit.previewKind).toBe("watermarked");
    preview = await fetchImage(hit.webUrl);
    const meta = await sharp(preview).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1280, 960]);

    const cells = await cellDifferences(preview, clean);
    // The tiled mark reaches every part of the photo (JPEG noise alone stays near 1)…
    for (const difference of cells) expect(difference).toBeGreaterThan(4);
    // …and the solid label at the foot of the photo, centred, changes the two middle cells of the bottom row a lot.
    expect(Math.min(cells[13] ?? 0, cells[14] ?? 0)).toBeGreaterThan(20);

    const thumbnail = await fetchImage(hit.thumbnailUrl);
    const thumbMeta = await sharp(thumbnail).metadata();
    expect(Math.max(thumbMeta.width ?? 0, thumbMeta.height ?? 0)).toBe(400);
    const admin = await apiClient(dorsal.url, token).get<PhotoDto>(`/api/photos/${photoId}`);
    const cleanThumbnail = await fetchImage(admin.body.thumbnailUrl);
    expect(Math.max(...(await cellDifferences(thumbnail, cleanThumbnail)))).toBeGreaterThan(4);
  });

  it("refuses the free-photo switches without a token (401) and to a photographer (403)", async () => {
    for (const action of ["enable-free-photos", "disable-free-photos"]) {
      expect((await apiClient(dorsal.url).post(`/api/events/${event.id}/${action}`)).status).toBe(401);
      expect((await apiClient(dorsal.url, "no-es-un-token").post(`/api/events/${event.id}/${action}`)).status).toBe(
        401,
      );
    }
    const photographerAccount = { email: "foto@dorsal.test", password: "secreto-foto" };
    const created = await apiClient(dorsal.url, token).post("/api/users", {
      name: "Fotógrafa",
      ...photographerAccount,
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", photographerAccount);
    const photographer = apiClient(dorsal.url, login.body.token);
    // A real session on the photographer's own event, so the 403 is about the role: they may read the photo.
    expect((await photographer.get(`/api/photos/${photoId}`)).status).toBe(200);
    for (const action of ["enable-free-photos", "disable-free-photos"])
      expect((await photographer.post(`/api/events/${event.id}/${action}`)).status).toBe(403);
  });

  it("switches the public search to the GRATIS/DEMO copy at once when free photos are enabled, and back", async () => {
    const enabled = await apiClient(dorsal.url, token).post<EventDto>(`/api/events/${event.id}/enable-free-photos`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id: event.id, freePhotosEnabled: true, photoCount: 1 });
    expect(enabled.body.freePhotosEnabledAt).toEqual(expect.any(String));
    expect((await apiClient(dorsal.url).get<EventDto>(`/api/events/${event.id}`)).body.freePhotosEnabled).toBe(true);

    const free = await search();
    expect(free.previewKind).toBe("gratis");
    const gratis = await fetchImage(free.webUrl);
    const meta = await sharp(gratis).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1280, 960]);
    // Marked (unlike the clean copy): the GRATIS/DEMO label sits at the foot of the photo, centred…
    const gratisCells = await cellDifferences(gratis, clean);
    expect(Math.min(gratisCells[13] ?? 0, gratisCells[14] ?? 0)).toBeGreaterThan(10);
    // …and it is not the paid preview.
    expect(Math.max(...(await cellDifferences(gratis, preview)))).toBeGreaterThan(4);

    // The admin still sees the clean copy.
    const admin = await apiClient(dorsal.url, token).get<PhotoDto>(`/api/photos/${photoId}`);
    expect(admin.body.previewKind).toBe("clean");

    const disabled = await apiClient(dorsal.url, token).post<EventDto>(`/api/events/${event.id}/disable-free-photos`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ freePhotosEnabled: false, freePhotosEnabledAt: null });
    expect((await search()).previewKind).toBe("watermarked");
  });

  it("answers a switch on an unknown event with 404", async () => {
    expect((await apiClient(dorsal.url, token).post("/api/events/9999/enable-free-photos")).status).toBe(404);
  });
});
