import type {
  EventDto,
  ParticipantPage,
  PhotoDto,
  PhotoPage,
  PresignResponse,
  PublicUser,
  ReindexResponse,
  SearchResponse,
  StartListImportResponse,
} from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { sharedDorsal } from "../support/server";

const csvForm = (content: string | Uint8Array, filename = "inscritos.csv") => {
  const form = new FormData();
  form.append("file", new Blob([content], { type: "text/csv" }), filename);
  return form;
};

/**
 * Issue 18 item 4 over HTTP, with the real pipeline and local OCR: the organizer's start list
 * decides which reads are published; a read off the list waits as a suggestion with its nearest
 * listed bibs, one click accepts it, and the re-index applies a changed list to processed photos.
 */
describe("start list: imported participants decide which reads are published", () => {
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let event: EventDto;
  const ids: Record<string, string> = {};

  const search = async (bib: string) =>
    (await apiClient(dorsal.url).get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`))
      .body;
  const photo = async (photoId: string) =>
    (await admin.get<PhotoPage>(`/api/events/${event.id}/photos?filter=todas`)).body.photos.find(
      (candidate) => candidate.id === photoId,
    ) as PhotoDto;
  const reindexAll = async () => {
    let cursor: string | null = null;
    do {
      cursor = (await admin.post<ReindexResponse>(`/api/events/${event.id}/reindex`, { cursor })).body.cursor;
    } while (cursor);
  };

  beforeAll(async () => {
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Media Maratón de Cali", date: "2026-12-20" })).body;
  });

  it("refuses a file with a bad line whole, telling each line's problem in Spanish", async () => {
    const csv = "\uFEFFDorsal;Nombre;Correo electrónico;Categoría\n4821;Ana Gómez;ana@example.com;F30\n5058;;;M40\n";
    const refused = await admin.post<{ error: string; details: { path: string; message: string }[] }>(
      `/api/events/${event.id}/participants/import`,
      csvForm(csv),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      "1 línea tiene un error: no se importó nada. Corrige el archivo y vuelve a importarlo.",
    );
    expect(refused.body.details).toEqual([{ path: "línea 3", message: "Línea 3: falta el nombre" }]);
    const list = await admin.get<ParticipantPage>(`/api/events/${event.id}/participants`);
    expect(list.body).toEqual({ startList: null, participants: [], cursor: null });

    const huge = `dorsal;nombre\n${"1;Nombre muy largo para llenar el archivo\n".repeat(90_000)}`;
    expect(await admin.post(`/api/events/${event.id}/participants/import`, csvForm(huge))).toEqual({
      status: 413,
      body: { success: false, error: "El archivo supera el máximo de 3 MB" },
    });
    expect(await admin.post(`/api/events/${event.id}/participants/import`, new FormData())).toMatchObject({
      status: 400,
      body: { error: "Elige el archivo CSV de la lista de inscritos" },
    });
  });

  it("lets only organizers import, list or delete a start list", async () => {
    const email = "foto.cali@dorsal.test";
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Foto Cali",
      email,
      password: "secreto1",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email,
      password: "secreto1",
    });
    const photographer = apiClient(dorsal.url, login.body.token);
    const forbidden = { success: false, error: "No tienes permiso para realizar esta acción" };
    const imported = await photographer.post(
      `/api/events/${event.id}/participants/import`,
      csvForm("dorsal,nombre\n1,A"),
    );
    expect(imported).toEqual({ status: 403, body: forbidden });
    expect(await photographer.get(`/api/events/${event.id}/participants`)).toEqual({ status: 403, body: forbidden });
    expect(await photographer.delete(`/api/events/${event.id}/participants`)).toEqual({ status: 403, body: forbidden });
  });

  it("imports a comma-separated Windows-1252 file (Excel's plain CSV) and pages through it in bib order", async () => {
    const csv =
      "número,nombre,email,categoría\n5058,Luis Pérez,,M40\n4821,Ana Gómez,ana@example.com,F30\n0300,Íngrid Díaz,,F20\n";
    const windows1252 = Uint8Array.from([...csv].map((character) => character.charCodeAt(0)));
    const imported = await admin.post<StartListImportResponse>(
      `/api/events/${event.id}/participants/import`,
      csvForm(windows1252),
    );
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, processedPhotos: 0 });

    const first = await admin.get<ParticipantPage>(`/api/events/${event.id}/participants?limit=2`);
    expect(first.body.startList).toMatchObject({ count: 3 });
    expect(first.body.participants).toEqual([
      { dorsalNumber: "300", name: "Íngrid Díaz", email: null, category: "F20", photoCount: 0 },
      { dorsalNumber: "4821", name: "Ana Gómez", email: "ana@example.com", category: "F30", photoCount: 0 },
    ]);
    const second = await admin.get<ParticipantPage>(
      `/api/events/${event.id}/participants?limit=2&cursor=${first.body.cursor}`,
    );
    expect(second.body.participants.map((participant) => participant.name)).toEqual(["Luis Pérez"]);
  });

  it("publishes listed reads; a read off the list by one digit waits as a suggestion, and one click accepts it", async () => {
    const files: [string, Buffer][] = [
      ["4821", await makeBibPhoto("4821")],
      ["5050", await makeBibPhoto("5050")],
      ["7777", await makeBibPhoto("7777")],
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
      async () => ((await admin.get<EventDto>(`/api/events/${event.id}`)).body.photoCount === 3 ? true : undefined),
      90_000,
      "three processed photos",
    );

    const listed = await search("4821");
    expect(listed).toMatchObject({ totalFound: 1, participantName: "Ana Gómez" });
    expect(listed.photos.map((found) => found.id)).toEqual([ids["4821"]]);

    expect((await search("5050")).totalFound).toBe(0);
    const offList = await photo(ids["5050"] as string);
    expect(offList.bibs).toEqual([]);
    expect(offList.suggestions).toEqual([{ number: "5050", nearest: [{ dorsalNumber: "5058", name: "Luis Pérez" }] }]);
    // Far from every listed bib: kept for the organizer, with nothing to propose.
    expect((await photo(ids["7777"] as string)).suggestions).toEqual([{ number: "7777", nearest: [] }]);

    const accept = (body: { read: string; dorsalNumber: string }) =>
      admin.post<PhotoDto>(`/api/events/${event.id}/photos/${ids["5050"]}/suggestions`, body);
    expect((await accept({ read: "5050", dorsalNumber: "4821" })).status).toBe(400);
    const accepted = await accept({ read: "5050", dorsalNumber: "5058" });
    expect(accepted.status).toBe(200);
    expect(accepted.body.bibs).toEqual([{ number: "5058", confidence: 100, box: null, source: "manual" }]);
    expect(accepted.body.suggestions).toEqual([]);
    expect(await search("5058")).toMatchObject({ totalFound: 1, participantName: "Luis Pérez" });
    expect((await accept({ read: "5050", dorsalNumber: "5058" })).status).toBe(409);
  });

  it("applies a deleted list to processed photos with the re-index, keeping what was accepted", async () => {
    const deleted = await admin.delete<{ deleted: number; processedPhotos: number }>(
      `/api/events/${event.id}/participants`,
    );
    expect(deleted.body).toEqual({ deleted: 3, processedPhotos: 3 });
    expect((await admin.get<ParticipantPage>(`/api/events/${event.id}/participants`)).body.startList).toBeNull();
    expect((await search("7777")).totalFound).toBe(0);

    await reindexAll();
    expect((await search("7777")).photos.map((found) => found.id)).toEqual([ids["7777"]]);
    expect((await search("7777")).participantName).toBeNull();
    expect((await photo(ids["7777"] as string)).suggestions).toEqual([]);
    // The accepted bib was the organizer's choice: it stays, and the misread stays removed.
    expect((await search("5058")).totalFound).toBe(1);
    expect((await search("5050")).totalFound).toBe(0);
  });
});
