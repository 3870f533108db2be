import type { BibPhotoPage, DorsalPage, EventDto, PhotoDto, PublicEventDto, SearchResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/** Public browsing, paged by the API: events with photos → bibs → a bib's photos; and free photos. */
describe("browsing by event and bib", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  let photoIdsByBib: Map<string, string[]>;
  let empty: EventDto;
  const visitor = () => apiClient(dorsal.url);

  beforeAll(async () => {
    dorsal = await startDorsal();
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    ({ event, photoIdsByBib } = await seedEventWithBibPhotos(dorsal, token, {
      name: "Carrera del Río",
      bibs: ["5173", "5173", "42"],
    }));
    empty = (await admin.post<EventDto>("/api/events", { name: "Carrera Sin Fotos", date: "2026-12-01" })).body;
  }, 180_000);
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("lists only events with photos, then their bibs in order with their counts", async () => {
    const events = (await visitor().get<PublicEventDto[]>("/api/events/all-with-photos")).body;
    expect(events.map((listed) => listed.id)).toEqual([event.id]);
    expect(events[0]).toMatchObject({ name: "Carrera del Río", photoCount: 3, freePhotosEnabled: false });
    expect(events.map((listed) => listed.id)).not.toContain(empty.id);

    const bibs = await visitor().get<DorsalPage>(`/api/events/${event.id}/dorsals/all?page=1`);
    expect(bibs.body).toEqual({
      dorsals: [
        { dorsalNumber: "42", photoCount: 1 },
        { dorsalNumber: "5173", photoCount: 2 },
      ],
      page: 1,
      pageSize: 100,
      total: 2,
      totalPages: 1,
    });
    // The grid follows a bib change as soon as the change has answered, both ways.
    const grid = async () => (await visitor().get<DorsalPage>(`/api/events/${event.id}/dorsals/all?page=1`)).body;
    const photoOf42 = photoIdsByBib.get("42")?.[0];
    const added = await admin.post(`/api/events/${event.id}/photos/${photoOf42}/bibs`, { dorsalNumber: "77" });
    expect(added.status).toBe(200);
    expect(await grid()).toMatchObject({
      dorsals: [
        { dorsalNumber: "42", photoCount: 1 },
        { dorsalNumber: "77", photoCount: 1 },
        { dorsalNumber: "5173", photoCount: 2 },
      ],
      total: 3,
    });
    expect((await admin.delete(`/api/events/${event.id}/photos/${photoOf42}/bibs/77`)).status).toBe(200);
    expect(await grid()).toMatchObject({ dorsals: bibs.body.dorsals, total: 2 });
    expect((await visitor().get(`/api/events/999/dorsals/all`)).status).toBe(404);
  });

  it("pages a bib's photos, never as the clean copy", async () => {
    const first = (await visitor().get<BibPhotoPage>(`/api/events/${event.id}/photos/5173/all?limit=1`)).body;
    expect(first).toMatchObject({ totalFound: 2, dorsalNumber: "5173", nextCursor: "1" });
    expect(first.photos).toHaveLength(1);
    const second = (
      await visitor().get<BibPhotoPage>(`/api/events/${event.id}/photos/5173/all?limit=1&cursor=${first.nextCursor}`)
    ).body;
    expect(second.nextCursor).toBeNull();
    const ids = [...first.photos, ...second.photos].map((photo) => photo.id);
    expect(new Set(ids).size).toBe(2);
    expect([...first.photos, ...second.photos].every((photo) => photo.previewKind === "watermarked")).toBe(true);

    const byIds = await visitor().post<PhotoDto[]>("/api/photos/by-ids", { photoIds: [...ids, "no-existe"] });
    expect(byIds.body.map((photo) => photo.id).sort()).toEqual([...ids].sort());
    expect(byIds.body.every((photo) => photo.previewKind === "watermarked")).toBe(true);
  });

  it("hands the same signed image URLs to every search while they stay valid for the asked hour", async () => {
    const search = () => visitor().get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=5173`);
    const first = (await search()).body;
    const page = (await visitor().get<BibPhotoPage>(`/api/events/${event.id}/photos/5173/all`)).body;
    // The purchase screen's search and the results screen's page show the same photos, in the same order.
    expect(first.photos.map((photo) => photo.id)).toEqual(page.photos.map((photo) => photo.id));
    expect(first).toMatchObject({ totalFound: 2, dorsalNumber: "5173" });
    // A presigned URL names the second it was signed: past it, only a cache hands out the same one.
    const signedSecond = Math.floor(Date.now() / 1000);
    await expect.poll(() => Math.floor(Date.now() / 1000), { interval: 50 }).toBeGreaterThan(signedSecond);
    const again = (await search()).body;
    expect(again.photos.map((photo) => [photo.thumbnailUrl, photo.webUrl])).toEqual(
      first.photos.map((photo) => [photo.thumbnailUrl, photo.webUrl]),
    );
    for (const photo of again.photos) {
      const url = new URL(photo.webUrl ?? "");
      const signedAt = Date.parse(
        (url.searchParams.get("X-Amz-Date") ?? "").replace(
          /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
          "$1-$2-$3T$4:$5:$6Z",
        ),
      );
      const expiresAt = signedAt + Number(url.searchParams.get("X-Amz-Expires")) * 1000;
      expect(expiresAt).toBeGreaterThanOrEqual(Date.now() + 3600_000);
      const image = await fetch(url);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/jpeg");
    }
  });

  it("offers free photos only while the event gives them away", async () => {
    const photoId = (await visitor().get<BibPhotoPage>(`/api/events/${event.id}/photos/42/all`)).body.photos[0]?.id;
    const download = () => fetch(new URL(`/api/free-photos/download/${photoId}`, dorsal.url), { redirect: "manual" });
    expect((await visitor().get<PublicEventDto[]>("/api/free-events")).body).toEqual([]);
    expect((await visitor().get(`/api/free-events/${event.id}/dorsals`)).status).toBe(404);
    expect((await download()).status).toBe(403);

    await admin.post(`/api/events/${event.id}/enable-free-photos`);
    expect((await visitor().get<PublicEventDto[]>("/api/free-events")).body.map((listed) => listed.id)).toEqual([
      event.id,
    ]);
    const bibs = (await visitor().get<DorsalPage>(`/api/free-events/${event.id}/dorsals`)).body;
    expect(bibs.total).toBe(2);
    const photos = (await visitor().get<BibPhotoPage>(`/api/free-events/${event.id}/photos/42`)).body;
    expect(photos.photos[0]?.previewKind).toBe("gratis");
    const redirect = await download();
    expect(redirect.status).toBe(302);
    const copy = await fetch(redirect.headers.get("location") ?? "");
    expect(copy.status).toBe(200);
    expect(copy.headers.get("content-type")).toBe("image/jpeg");
  });
});
