import type {
  EventConfigDto,
  EventDto,
  PhotoDto,
  PhotoPage,
  PresignResponse,
  ReindexResponse,
  SearchResponse,
} from "@dorsal/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 3's organizer side over HTTP: photos without a bib are listed, bibs are corrected by hand,
 * search follows at once, and re-indexing after a configuration change keeps manual tags and
 * never duplicates anything.
 */
describe("bib index: manual correction and re-indexing", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  const ids: Record<string, string> = {};

  const search = async (bib: string) =>
    (await admin.get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`)).body;
  const photosOf = async (filter: string) =>
    (await admin.get<PhotoPage>(`/api/events/${event.id}/photos?filter=${filter}`)).body.photos;
  const reindexAllOf = async (eventId: number) => {
    let cursor: string | null = null;
    let changed = 0;
    do {
      const page: ReindexResponse = (await admin.post<ReindexResponse>(`/api/events/${eventId}/reindex`, { cursor }))
        .body;
      changed += page.changed;
      cursor = page.cursor;
    } while (cursor);
    return changed;
  };
  const reindexAll = () => reindexAllOf(event.id);
  const detectedDorsals = async () =>
    (await admin.get<{ detectedDorsals: number }>("/api/dashboard/stats")).body.detectedDorsals;

  beforeAll(async () => {
    dorsal = await startDorsal();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Trail Guatavita", date: "2026-12-13" })).body;

    const blank = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7d44" } })
      .jpeg()
      .toBuffer();
    const files: [string, Buffer][] = [
      ["4821", await makeBibPhoto("4821")],
      ["5050", await makeBibPhoto("5050")],
      ["none", blank],
    ];
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: files.map(([name, body]) => ({ filename: `${name}.jpg`, contentType: "image/jpeg", size: body.length })),
    });
    for (const [index, upload] of presigned.body.uploads.entries()) {
      const [name, body] = files[index] as [string, Buffer];
      ids[name] = upload.photoId;
      await fetch(upload.url, { method: "PUT", headers: upload.headers, body });
    }
    await waitFor(
      async () => {
        const current = (await admin.get<EventDto>(`/api/events/${event.id}`)).body;
        return current.photoCount === 3 ? true : undefined;
      },
      90_000,
      "three processed photos",
    );
  });

  afterAll(async () => {
    await dorsal?.stop();
  });

  it("lists the processed photos without a bib ('Sin dorsal')", async () => {
    const unbibbed = await photosOf("sin-dorsal");
    expect(unbibbed.map((p) => p.id)).toEqual([ids.none]);
    expect((await photosOf("todas")).map((p) => p.id).sort()).toEqual([ids["4821"], ids["5050"], ids.none].sort());
    const detail = (await photosOf("todas")).find((p) => p.id === ids["4821"]) as PhotoDto;
    expect(detail.bibs).toEqual([
      expect.objectContaining({
        number: "4821",
        source: "machine",
        box: expect.objectContaining({ width: expect.any(Number) }),
      }),
    ]);
  });

  it("tags a bib by hand and search reflects it at once", async () => {
    const bad = await admin.post(`/api/events/${event.id}/photos/${ids.none}/bibs`, { dorsalNumber: "12a" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "Los dorsales de este evento solo tienen números" });
    // Judged by the event's bib settings (2 to 6 digits), never cut to fit.
    const long = await admin.post(`/api/events/${event.id}/photos/${ids.none}/bibs`, { dorsalNumber: "1234567" });
    expect(long).toMatchObject({ status: 400, body: { error: "Los dorsales de este evento tienen de 2 a 6 dígitos" } });

    const tagged = await admin.post<PhotoDto>(`/api/events/${event.id}/photos/${ids.none}/bibs`, {
      dorsalNumber: "077",
    });
    expect(tagged.status).toBe(200);
    expect(tagged.body.bibs).toEqual([{ number: "77", confidence: 100, box: null, source: "manual" }]);
    expect((await search("77")).photos.map((p) => p.id)).toEqual([ids.none]);
    expect(await photosOf("sin-dorsal")).toEqual([]);
  });

  it("removes a machine bib by hand", async () => {
    const anonymous = await apiClient(dorsal.url).delete(`/api/events/${event.id}/photos/${ids["4821"]}/bibs/4821`);
    expect(anonymous.status).toBe(401);
    const removed = await admin.delete<PhotoDto>(`/api/events/${event.id}/photos/${ids["4821"]}/bibs/4821`);
    expect(removed.status).toBe(200);
    expect(removed.body.manualBibs).toEqual({ added: [], removed: ["4821"] });
    expect((await search("4821")).totalFound).toBe(0);
    expect((await photosOf("sin-dorsal")).map((p) => p.id)).toEqual([ids["4821"]]);
    expect(await detectedDorsals()).toBe(2);
  });

  it("re-indexes after a configuration change, keeping manual tags and duplicating nothing", async () => {
    const config = await admin.get<EventConfigDto>(`/api/events/${event.id}/config`);
    expect(config.body).toMatchObject({ ocrConfidenceThreshold: 90, maxDorsalsPerPhoto: 10, configurationVersion: 0 });

    const strict = await admin.put<EventConfigDto>(`/api/events/${event.id}/config`, {
      ...config.body,
      ocrConfidenceThreshold: 100,
    });
    expect(strict.body).toMatchObject({ ocrConfidenceThreshold: 100, configurationVersion: 1 });
    expect(await reindexAll()).toBe(1);
    expect((await search("5050")).totalFound).toBe(0);
    expect((await search("77")).totalFound).toBe(1);

    await admin.put(`/api/events/${event.id}/config`, { ...config.body, ocrConfidenceThreshold: 90 });
    expect(await reindexAll()).toBe(1);
    expect(await reindexAll()).toBe(0);
    expect((await search("5050")).photos.map((p) => p.id)).toEqual([ids["5050"]]);
    expect((await search("4821")).totalFound).toBe(0);
    expect((await search("77")).totalFound).toBe(1);
    expect(await detectedDorsals()).toBe(2);
  });

  it("reads letter bibs on an event whose format says so, stored and searched as printed", async () => {
    const upload = async (eventId: number, bib: string) => {
      const body = await makeBibPhoto(bib, { width: 1200, height: 900 });
      const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
        eventId,
        files: [{ filename: `${bib}.jpg`, contentType: "image/jpeg", size: body.length }],
      });
      const [slot] = presigned.body.uploads;
      if (!slot) throw new Error("no upload slot");
      await fetch(slot.url, { method: "PUT", headers: slot.headers, body });
      await waitFor(
        async () => ((await admin.get<EventDto>(`/api/events/${eventId}`)).body.photoCount === 1 ? true : undefined),
        90_000,
        `the ${bib} photo processed`,
      );
      return slot.photoId;
    };
    const searchIn = async (eventId: number, bib: string) =>
      (await admin.get<SearchResponse>(`/api/photos/search?eventId=${eventId}&dorsalNumber=${bib}`)).body.photos.map(
        (photo) => photo.id,
      );
    const letterFormat = { bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 };

    // A digits-only event (the default) does not publish the letter bib; its read text is kept.
    const digits = (await admin.post<EventDto>("/api/events", { name: "Media de Bogotá", date: "2026-12-20" })).body;
    const unpublished = await upload(digits.id, "M10380");
    expect(await searchIn(digits.id, "M10380")).toEqual([]);
    const listed = (await admin.get<PhotoPage>(`/api/events/${digits.id}/photos?filter=sin-dorsal`)).body.photos;
    expect(listed.map((photo) => photo.id)).toEqual([unpublished]);

    // The settings API refuses, in Spanish, a pattern that could hang recognition or match nothing.
    const settings = (await admin.get<EventConfigDto>(`/api/events/${digits.id}/config`)).body;
    expect(settings.bibPattern).toBe("^\\d+$");
    const hanging = await admin.put(`/api/events/${digits.id}/config`, { ...settings, bibPattern: "^(\\d+)+$" });
    expect(hanging).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: "bibPattern" })] },
    });
    expect(JSON.stringify(hanging.body)).toContain("repite un grupo");
    const empty = await admin.put(`/api/events/${digits.id}/config`, { ...settings, bibPattern: "\\d*" });
    expect(JSON.stringify(empty.body)).toContain("El formato de dorsal no puede aceptar una lectura vacía");

    // A save that leaves the format out (an older client) keeps the stored one.
    const { bibPattern: _leftOut, ...withoutFormat } = settings;
    await admin.put(`/api/events/${digits.id}/config`, { ...settings, bibPattern: "^[A-Z]\\d+$" });
    const keptFormat = await admin.put<EventConfigDto>(`/api/events/${digits.id}/config`, withoutFormat);
    expect(keptFormat.body.bibPattern).toBe("^[A-Z]\\d+$");
    await admin.put(`/api/events/${digits.id}/config`, settings);

    // Switched to a letter and 5 digits, the re-index applies the pattern to the stored text.
    const switched = await admin.put<EventConfigDto>(`/api/events/${digits.id}/config`, {
      ...settings,
      ...letterFormat,
    });
    expect(switched.body).toMatchObject(letterFormat);
    expect(await reindexAllOf(digits.id)).toBe(1);
    expect(await searchIn(digits.id, "M10380")).toEqual([unpublished]);
    expect(await searchIn(digits.id, "m10380")).toEqual([unpublished]);

    // An event set to letter bibs before its upload publishes the read straight from the pipeline.
    const lettered = (await admin.post<EventDto>("/api/events", { name: "Maratón de Letras", date: "2026-12-27" }))
      .body;
    await admin.put(`/api/events/${lettered.id}/config`, { ...settings, ...letterFormat });
    const published = await upload(lettered.id, "M10380");
    const found = (await admin.get<SearchResponse>(`/api/photos/search?eventId=${lettered.id}&dorsalNumber=m10380`))
      .body;
    expect(found).toMatchObject({ totalFound: 1, dorsalNumber: "M10380" });
    expect(found.photos[0]?.bibs).toEqual([expect.objectContaining({ number: "M10380", source: "machine" })]);

    // A manual tag is judged by the format, and the message says what the bibs look like.
    const refused = await admin.post(`/api/events/${lettered.id}/photos/${published}/bibs`, { dorsalNumber: "10380" });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: "Los dorsales de este evento son una letra y 5 dígitos, p. ej. M10380" },
    });

    // A download code takes the bib whatever its case and opens that bib's photo.
    const code = await admin.post<{ code: string; dorsalNumber: string }>("/api/admin/generate-download-code", {
      eventId: lettered.id,
      dorsalNumber: "m10380",
    });
    expect(code).toMatchObject({ status: 201, body: { dorsalNumber: "M10380" } });
    const validation = await apiClient(dorsal.url).post<{ valid: boolean; photos: { id: string }[] }>(
      "/api/download-codes/validate",
      { code: code.body.code, eventId: lettered.id, dorsalNumber: "M10380" },
    );
    expect(validation.body).toMatchObject({ valid: true, photos: [{ id: published }] });

    // Printed with a gap between the letter and the number, read through the pipeline as one bib,
    // and found however the athlete types it.
    const gapped = (await admin.post<EventDto>("/api/events", { name: "Carrera del Espacio", date: "2026-12-28" }))
      .body;
    await admin.put(`/api/events/${gapped.id}/config`, { ...settings, ...letterFormat });
    const spaced = await upload(gapped.id, "M 20471");
    for (const typed of ["M20471", "m 20471", "M-20471"]) {
      const result = await admin.get<SearchResponse>(
        `/api/photos/search?eventId=${gapped.id}&dorsalNumber=${encodeURIComponent(typed)}`,
      );
      expect(result.body, typed).toMatchObject({ totalFound: 1, dorsalNumber: "M20471", photos: [{ id: spaced }] });
    }
  });

  it("keeps these tools for admins", async () => {
    const anonymous = apiClient(dorsal.url);
    expect((await anonymous.get(`/api/events/${event.id}/photos`)).status).toBe(401);
    expect((await anonymous.post(`/api/events/${event.id}/reindex`, {})).status).toBe(401);
    expect((await anonymous.get(`/api/events/${event.id}/config`)).status).toBe(401);
  });
});
