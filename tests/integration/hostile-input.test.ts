import type { EventDto } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

type Client = ReturnType<typeof apiClient>;
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * What a probe of the running product sends that no browser does: broken percent-encoding,
 * forged paging cursors, broken multipart bodies, passwords of megabytes. Each is a 4xx with a
 * Spanish message, never a 500, and the process keeps serving.
 */
describe("hostile input", () => {
  let dorsal: RunningDorsal;
  let admin: Client;
  let token: string;
  let event: EventDto;

  beforeAll(async () => {
    dorsal = await startDorsal();
    token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
    event = (await admin.post<EventDto>("/api/events", { name: "Carrera Sonda", date: "2026-12-06" })).body;
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("answers a path with broken percent-encoding 400, in the API, the site and the storage alike", async () => {
    const malformed = { success: false, error: "La dirección solicitada está mal codificada" };
    for (const path of ["/api/events/%E0%A4%A/pricing", "/api/photos/%", "/%E0%A4%A"]) {
      const response = await fetch(new URL(path, dorsal.url), { headers: { authorization: `Bearer ${token}` } });
      expect({ path, status: response.status, body: await response.json() }).toEqual({
        path,
        status: 400,
        body: malformed,
      });
    }
    // The store answers in S3's own terms, before any signature is looked at.
    const storage = await fetch(
      new URL("/dorsal-originals/photos/%E0%A4%A?uploadId=0123456789abcdef0123456789abcdef", dorsal.url),
    );
    expect(storage.status).toBe(400);
    expect(await storage.text()).toContain("<Code>InvalidURI</Code>");
    // Well encoded, the same kind of character is an ordinary (here invalid) path parameter.
    expect(await admin.get(`/api/events/${encodeURIComponent("á")}/pricing`)).toMatchObject({
      status: 400,
      body: { error: "Debe ser un número" },
    });
  });

  it("answers 400 'Cursor de paginación inválido' to every forged cursor on every paged list", async () => {
    const invalidCursor = { success: false, error: "Cursor de paginación inválido" };
    const forged = [
      "%%%",
      cursorOf({ pk: { x: 1 } }),
      cursorOf([1]),
      cursorOf("a"),
      cursorOf({}),
      cursorOf({ pk: "a", sk: "b", extra: "c" }),
      cursorOf({ pk: "a", sk: 1 }),
    ];
    const lists = [
      (cursor: string) => admin.get(`/api/admin/failed-photos?cursor=${cursor}`),
      (cursor: string) => admin.get(`/api/admin/photographer-applications?cursor=${cursor}`),
      (cursor: string) => admin.get(`/api/admin/sales?eventId=${event.id}&cursor=${cursor}`),
      (cursor: string) => admin.get(`/api/events/${event.id}/photos?cursor=${cursor}`),
      (cursor: string) => admin.post(`/api/events/${event.id}/reindex`, { cursor }),
    ];
    for (const [index, list] of lists.entries()) {
      for (const cursor of forged) {
        expect({ index, cursor, ...(await list(cursor)) }).toEqual({
          index,
          cursor,
          status: 400,
          body: invalidCursor,
        });
      }
    }
    // Well-formed keys the table itself refuses: another index's key, a position outside the query.
    for (const cursor of [
      cursorOf({ pk: "a", sk: "b" }),
      cursorOf({ pk: "a", sk: "b", gsi2pk: "OTRO", gsi2sk: "c" }),
    ]) {
      expect(await admin.get(`/api/admin/failed-photos?cursor=${cursor}`)).toEqual({
        status: 400,
        body: invalidCursor,
      });
    }
    const outsideEvent = cursorOf({ pk: "a", sk: "b", gsi2pk: "PHOTOS#FAILED", gsi2sk: "zzz" });
    expect(await admin.get(`/api/admin/failed-photos?eventId=${event.id}&cursor=${outsideEvent}`)).toEqual({
      status: 400,
      body: invalidCursor,
    });
  });

  it("answers 400 in Spanish to a multipart body without a boundary or cut short, and keeps serving", async () => {
    const post = async (path: string, contentType: string, body: string) => {
      const response = await fetch(new URL(path, dorsal.url), {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": contentType },
        body,
      });
      return { status: response.status, body: await response.json() };
    };
    for (const path of [
      "/api/photos/upload",
      "/api/emergency/mobile-upload",
      "/api/photos/resume-upload",
      "/api/photos/upload-zip",
    ]) {
      expect({ path, ...(await post(path, "multipart/form-data", "x")) }).toEqual({
        path,
        status: 400,
        body: {
          success: false,
          error: "Formulario inválido: el tipo de contenido no indica el separador de sus partes",
        },
      });
    }
    const cutInsideAFile = [
      "--frontera",
      'content-disposition: form-data; name="eventId"',
      "",
      String(event.id),
      "--frontera",
      'content-disposition: form-data; name="photos"; filename="a.jpg"',
      "content-type: image/jpeg",
      "",
      "\xff\xd8\xff sin final",
    ].join("\r\n");
    const malformedForm = {
      status: 400,
      body: { success: false, error: "Formulario inválido: el contenido está incompleto o mal formado" },
    };
    expect(await post("/api/photos/upload", "multipart/form-data; boundary=frontera", cutInsideAFile)).toEqual(
      malformedForm,
    );
    expect(await post("/api/photos/upload", "multipart/form-data; boundary=frontera", "x")).toEqual(malformedForm);
    expect((await admin.get("/api/events")).status).toBe(200);
  });

  it("refuses passwords over 200 characters on sign-in with a Spanish message", async () => {
    const tooLong = { success: false, error: "La contraseña debe tener como máximo 200 caracteres" };
    const longPassword = "x".repeat(201);
    const signIn = await apiClient(dorsal.url).post("/api/auth/login", {
      email: dorsal.adminEmail,
      password: longPassword,
    });
    expect(signIn).toMatchObject({ status: 400, body: tooLong });
    const register = await apiClient(dorsal.url).post("/api/auth/athlete-register", {
      name: "Ana Pérez",
      email: "ana@dorsal.test",
      password: longPassword,
    });
    expect(register).toMatchObject({ status: 400, body: tooLong });
  });
});
