import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { EventConfigDto, EventDto, PresignResponse, SearchResponse } from "@dorsal/shared";
import { type FaceForgetResponse, type FaceSearchResponse, faceSearchMessages } from "@dorsal/shared/face-search";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { probePortraitJpeg } from "../../functions/src/preflight/probe-portrait";
import { adminToken, apiClient, deletionFinished, waitFor } from "../support/api";
import { itemsOf, scanTable, storedObjectKeys } from "../support/table-scan";

/** Three other people, shipped inside the face model's npm package: strangers to the selfie. */
const strangers = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json")), "demo/sample1.jpg"),
);

/**
 * Issue 23 through the shared runtime: an organizer switches 'Búsqueda por selfie' on, the pipeline
 * keeps the faces of that event's photos only, an athlete finds with a selfie the photo their bib
 * missed, and switching off or deleting the event leaves nothing biometric behind.
 */
describe("selfie search", () => {
  const dorsal = inject("sharedDorsal");
  let token: string;
  const admin = () => apiClient(dorsal.url, token);
  const portrait = probePortraitJpeg();
  let withBib: Buffer;
  let bibHidden: Buffer;
  let noFace: Buffer;
  /** Her face as an athlete's phone would send it: cut from the event's photo, re-encoded smaller. */
  let selfie: Buffer;

  const createEvent = async (name: string, faceSearch: boolean) => {
    const created = await admin().post<EventDto>("/api/events", { name, date: "2026-11-29", location: "Cali" });
    expect(created.status).toBe(201);
    if (faceSearch) {
      const on = await admin().put<EventConfigDto>(`/api/events/${created.body.id}/face-search`, { enabled: true });
      expect(on).toMatchObject({ status: 200, body: { faceSearch: true } });
    }
    return created.body;
  };

  /** Uploads the photos and waits until each is processed; their ids, in order. */
  const upload = async (eventId: number, photos: Buffer[]) => {
    const presigned = await admin().post<PresignResponse>("/api/photos/presign", {
      eventId,
      files: photos.map((photo, index) => ({
        filename: `f${index}.jpg`,
        contentType: "image/jpeg",
        size: photo.length,
      })),
    });
    expect(presigned.status).toBe(200);
    for (const [index, target] of presigned.body.uploads.entries()) {
      const put = await fetch(target.url, { method: "PUT", headers: target.headers, body: photos[index] as Buffer });
      expect(put.status).toBe(200);
    }
    await waitFor(
      async () => {
        const event = (await apiClient(dorsal.url).get<EventDto>(`/api/events/${eventId}`)).body;
        return event.photoCount === photos.length ? true : undefined;
      },
      120_000,
      `${photos.length} photos of event ${eventId} to be processed`,
    );
    return presigned.body.uploads.map((target) => target.photoId);
  };

  const selfieForm = (fields: Record<string, string>, image?: Buffer) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (image) form.append("selfie", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "selfie.jpg");
    return form;
  };
  const searchByFace = (fields: Record<string, string>, image?: Buffer) =>
    apiClient(dorsal.url).post<FaceSearchResponse & { error?: string }>(
      "/api/photos/search-by-face",
      selfieForm(fields, image),
    );

  /** What the table and storage hold of the event's faces: descriptor items, and objects not a photo's copies. */
  const biometricsOf = async (eventId: number) => {
    const items = itemsOf(await scanTable(dorsal.tableEndpoint), [eventId]);
    const photoCopies =
      /^dorsal-(originals|derived)\/eventos\/\d+\/(originales|web|miniaturas|muestras|muestras-miniaturas|gratis)\/[a-z0-9]+\.jpg$/;
    return {
      items: items.filter((item) => String(item.sk).startsWith("FACES#") || "codes" in item),
      objects: (await storedObjectKeys(dorsal.dataDir, eventId)).filter((key) => !photoCopies.test(key)),
    };
  };

  beforeAll(async () => {
    token = await adminToken(dorsal);
    withBib = await makeBibPhoto("4821", { portrait });
    // The same runner with the bib turned away: the bib search cannot find it.
    bibHidden = await makeBibPhoto("", { portrait });
    noFace = await makeBibPhoto("77");
    const { width = 0 } = await sharp(withBib).metadata();
    const cut = Math.round(width * 0.3);
    selfie = await sharp(withBib)
      .extract({ left: Math.round((width - cut) / 2), top: 0, width: cut, height: cut })
      .resize({ width: 180 })
      .jpeg({ quality: 70 })
      .toBuffer();
  });

  it("is off by default, computes and keeps nothing then, and answers 404; switched on, indexes the photos it had", async () => {
    const event = await createEvent("Selfie apagada", false);
    expect((await admin().get<EventConfigDto>(`/api/events/${event.id}/config`)).body.faceSearch).toBe(false);
    expect((await apiClient(dorsal.url).get<EventDto>(`/api/events/${event.id}`)).body.faceSearch).toBe(false);

    const [photoId] = await upload(event.id, [withBib]);

    expect(await biometricsOf(event.id)).toEqual({ items: [], objects: [] });
    expect(await searchByFace({ eventId: String(event.id), consent: "true" }, selfie)).toEqual({
      status: 404,
      body: expect.objectContaining({ error: faceSearchMessages.off }),
    });

    // Switched on later: the photo it already had is described in the background, with progress.
    const on = await admin().put<EventConfigDto>(`/api/events/${event.id}/face-search`, { enabled: true });
    expect(on.body.faceIndexing).toMatchObject({ total: 1 });
    const progress = await waitFor(
      async () => {
        const config = (await admin().get<EventConfigDto>(`/api/events/${event.id}/config`)).body;
        return config.faceIndexing?.finished ? config.faceIndexing : undefined;
      },
      60_000,
      "the event's existing photos to be indexed",
    );
    expect(progress).toEqual({ done: 1, total: 1, finished: true });
    const found = await searchByFace({ eventId: String(event.id), consent: "true" }, selfie);
    expect(found.body.photos.map((photo) => photo.id)).toEqual([photoId]);
  });

  describe("switched on", () => {
    let event: EventDto;
    let ids: string[];

    beforeAll(async () => {
      event = await createEvent("Selfie encendida", true);
      ids = await upload(event.id, [withBib, bibHidden, strangers, noFace]);
    });

    it("keeps the faces of the event's photos with the photos, not in storage", async () => {
      const { items, objects } = await biometricsOf(event.id);
      expect(objects).toEqual([]);
      // The portrait's two photos and the three strangers; the bib-only photo has no face to keep.
      expect(items.map((item) => [item.photoId, item.count]).sort()).toEqual(
        [
          [ids[0], 1],
          [ids[1], 1],
          [ids[2], 3],
        ].sort(),
      );
    });

    it("refuses a search without the athlete's consent", async () => {
      expect(await searchByFace({ eventId: String(event.id) }, selfie)).toMatchObject({
        status: 400,
        body: { error: faceSearchMessages.consentRequired },
      });
      expect(await searchByFace({ eventId: String(event.id), consent: "false" }, selfie)).toMatchObject({
        status: 400,
      });
    });

    it("finds with a selfie her photos, the one her bib missed included, and no stranger's", async () => {
      const byBib = await apiClient(dorsal.url).get<SearchResponse>(
        `/api/photos/search?eventId=${event.id}&dorsalNumber=4821`,
      );
      expect(byBib.body.photos.map((photo) => photo.id)).toEqual([ids[0]]);

      const found = await searchByFace({ eventId: String(event.id), consent: "true" }, selfie);

      expect(found.status).toBe(200);
      const ranked = found.body.photos;
      expect(ranked.map((photo) => photo.id).sort()).toEqual([ids[0], ids[1]].sort());
      // Both show the same face, so their scores differ by a tenth either way or tie: best first,
      // and a tie in upload order (one batch: f0.jpg before f1.jpg), never in the table's read order.
      const byRule = [...ranked].sort((a, b) => b.score - a.score || ids.indexOf(a.id) - ids.indexOf(b.id));
      expect(ranked).toEqual(byRule);
      for (const photo of ranked)
        expect(photo).toMatchObject({ score: expect.any(Number), thumbnailUrl: expect.any(String), certain: true });
    });

    it("says so in Spanish when the selfie has no face, or several", async () => {
      expect(await searchByFace({ eventId: String(event.id), consent: "true" }, noFace)).toMatchObject({
        status: 400,
        body: { error: faceSearchMessages.noFace },
      });
      expect(await searchByFace({ eventId: String(event.id), consent: "true" }, strangers)).toMatchObject({
        status: 400,
        body: { error: faceSearchMessages.severalFaces },
      });
    });

    it("takes the photos an athlete's selfie finds out of the event's face results, at their request", async () => {
      const fields = { eventId: String(event.id), consent: "true" };
      const forgotten = await apiClient(dorsal.url).post<FaceForgetResponse>(
        "/api/photos/search-by-face/forget",
        selfieForm(fields, selfie),
      );

      expect(forgotten).toEqual({ status: 200, body: { removedPhotos: 2 } });
      expect((await searchByFace(fields, selfie)).body.photos).toEqual([]);
      // The strangers' photo still answers their faces.
      expect((await biometricsOf(event.id)).items.map((item) => item.photoId)).toEqual([ids[2]]);
    });

    it("deletes the event's faces with the event", async () => {
      expect((await biometricsOf(event.id)).items).not.toEqual([]);

      const removed = await fetch(new URL(`/api/events/${event.id}`, dorsal.url), {
        method: "DELETE",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ adminPassword: dorsal.adminPassword }),
      });
      expect(removed.status).toBe(202);
      await deletionFinished(admin(), event.id);

      expect(await biometricsOf(event.id)).toEqual({ items: [], objects: [] });
    });
  });

  it("deletes every face kept when the organizer switches it off", async () => {
    const event = await createEvent("Selfie que se apaga", true);
    await upload(event.id, [bibHidden]);
    expect((await biometricsOf(event.id)).items).toHaveLength(1);

    const off = await admin().put<EventConfigDto>(`/api/events/${event.id}/face-search`, { enabled: false });

    expect(off).toMatchObject({ status: 200, body: { faceSearch: false } });
    expect(await biometricsOf(event.id)).toEqual({ items: [], objects: [] });
    expect((await searchByFace({ eventId: String(event.id), consent: "true" }, selfie)).status).toBe(404);
  });
});
