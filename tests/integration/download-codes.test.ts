import type {
  DownloadCodeResult,
  DownloadCodeValidation,
  DownloadZip,
  EventDto,
  IssuedDownloadCode,
} from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { sharedDorsal } from "../support/server";
import { readZip } from "../support/zip";

/**
 * Download codes through the runtime: an admin issues one for a bib, the athlete validates it and
 * downloads that bib's originals, each photo up to the code's limit.
 */
describe("download codes", () => {
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  let photoId: string;
  let issued: DownloadCodeResult;

  beforeAll(async () => {
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    const seeded = await seedEventWithBibPhotos(dorsal, token, { name: "Carrera Verde", bibs: ["5173", "42"] });
    event = seeded.event;
    photoId = seeded.photoIdsByBib.get("5173")?.[0] ?? "";
  }, 180_000);
  it("is issued by admins only, for active events that sell their photos", async () => {
    const request = { eventId: event.id, dorsalNumber: "05173", expiresInDays: 7, maxDownloads: 3 };
    expect((await apiClient(dorsal.url).post("/api/admin/generate-download-code", request)).status).toBe(401);

    const created = await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", request);
    expect(created.status).toBe(201);
    issued = created.body;
    expect(issued.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(issued).toMatchObject({ dorsalNumber: "5173", eventName: "Carrera Verde", maxDownloads: 3 });
    const days = (Date.parse(issued.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    const free = (await admin.post<EventDto>("/api/events", { name: "Carrera Libre", date: "2026-12-01" })).body;
    await admin.post(`/api/events/${free.id}/enable-free-photos`);
    const refused = await admin.post<{ error: string }>("/api/admin/generate-download-code", {
      ...request,
      eventId: free.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Solo se generan códigos para eventos activos sin fotos gratis");

    const missing = await admin.post<{ error: string }>("/api/admin/generate-download-code", {
      eventId: event.id,
      dorsalNumber: "",
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("Por favor selecciona un evento e ingresa el número de dorsal");
  });

  it("opens only its own event and bib, whatever the case it is typed in", async () => {
    const anonymous = apiClient(dorsal.url);
    const validate = (body: object) => anonymous.post<DownloadCodeValidation>("/api/download-codes/validate", body);
    expect((await validate({ code: issued.code, eventId: event.id, dorsalNumber: "42" })).body).toEqual({
      valid: false,
      error: "Código de descarga inválido",
      remainingDownloads: 0,
    });
    expect((await validate({ code: "  ", eventId: event.id, dorsalNumber: "5173" })).body).toMatchObject({
      error: "Por favor ingresa un código de descarga",
    });
    const valid = await validate({ code: ` ${issued.code.toLowerCase()} `, eventId: event.id, dorsalNumber: "5173" });
    expect(valid.status).toBe(200);
    if (!valid.body.valid) throw new Error(`code refused: ${valid.body.error}`);
    expect(valid.body.remainingDownloads).toBe(3);
    expect(valid.body.maxDownloads).toBe(3);
    expect(valid.body.photos.map((photo) => photo.id)).toEqual([photoId]);
  });

  it("downloads the bib's original up to the limit, counting every download once", async () => {
    const url = new URL(`/api/download-codes/download/${issued.code}/${photoId}`, dorsal.url);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async () => (await fetch(url, { redirect: "manual" })).status),
    );
    expect(statuses.filter((status) => status === 302)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(3);

    const afterLimit = await apiClient(dorsal.url).post<DownloadCodeValidation>("/api/download-codes/validate", {
      code: issued.code,
      eventId: event.id,
      dorsalNumber: "5173",
    });
    expect(afterLimit.body).toMatchObject({ valid: false, error: "Este código ya alcanzó su límite de descargas" });

    const [listed] = (await admin.get<IssuedDownloadCode[]>(`/api/admin/download-codes?eventId=${event.id}`)).body;
    expect(listed).toMatchObject({
      code: issued.code,
      isUsed: true,
      downloadCount: 3,
      maxDownloads: 3,
      remainingDownloads: 0,
      photoCount: 1,
    });
  });

  it("serves the clean original behind the redirect, and refuses photos of other bibs", async () => {
    const second = (
      await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", {
        eventId: event.id,
        dorsalNumber: "5173",
      })
    ).body;
    expect(second.maxDownloads).toBe(5);
    const redirect = await fetch(new URL(`/api/download-codes/download/${second.code}/${photoId}`, dorsal.url), {
      redirect: "manual",
    });
    expect(redirect.status).toBe(302);
    const original = await fetch(redirect.headers.get("location") ?? "");
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/jpeg");

    const otherBib = await fetch(new URL(`/api/download-codes/download/${second.code}/not-a-photo`, dorsal.url), {
      redirect: "manual",
    });
    expect(otherBib.status).toBe(404);
  });

  it("downloads the bib's originals as one ZIP, each photo counted once under the code", async () => {
    const code = (
      await admin.post<DownloadCodeResult>("/api/admin/generate-download-code", {
        eventId: event.id,
        dorsalNumber: "5173",
        maxDownloads: 3,
      })
    ).body.code;
    const zip = () =>
      apiClient(dorsal.url).post<DownloadZip & { error: string }>(`/api/download-codes/download/${code}/zip`);
    const first = await zip();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ filename: "fotos-carrera-verde-dorsal-5173.zip", photoCount: 1 });
    const files = await readZip(Buffer.from(await (await fetch(first.body.url)).arrayBuffer()));
    expect([...files.keys()]).toEqual(["bib-5173-0.jpg"]);
    expect(files.get("bib-5173-0.jpg")?.equals(await makeBibPhoto("5173", { width: 1200, height: 900 }))).toBe(true);

    const validation = await apiClient(dorsal.url).post<DownloadCodeValidation>("/api/download-codes/validate", {
      code,
      eventId: event.id,
      dorsalNumber: "5173",
    });
    expect(validation.body).toMatchObject({ valid: true, remainingDownloads: 2, maxDownloads: 3 });
    const single = await fetch(new URL(`/api/download-codes/download/${code}/${photoId}`, dorsal.url), {
      redirect: "manual",
    });
    expect(single.status).toBe(302);
    expect((await zip()).body.photoCount).toBe(1);
    const spent = await zip();
    expect(spent.status).toBe(403);
    expect(spent.body.error).toBe("Este código ya alcanzó su límite de descargas");
    const listed = (await admin.get<{ code: string }[]>(`/api/admin/download-codes?eventId=${event.id}`)).body;
    expect(listed.find((row) => row.code === code)).toMatchObject({ downloadCount: 3, isUsed: true });
    expect((await apiClient(dorsal.url).post("/api/download-codes/download/NOEXISTE/zip")).status).toBe(404);
  });
});
