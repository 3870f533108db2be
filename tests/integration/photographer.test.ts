import {
  type EventDto,
  messages,
  type PhotoDto,
  type PresignResponse,
  type PublicUser,
  type UploadResponse,
} from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, allUsers, apiClient, waitFor } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Photographer accounts, enforced by the server: an admin creates one bound to an event; it signs in
 * through the same login, uploads only to that event, and every admin endpoint refuses it.
 */
describe("photographer accounts", () => {
  const forbidden = { success: false, error: "No tienes permiso para realizar esta acción" };
  const credentials = { email: "Foto.Grafa@dorsal.test", password: "secreto1" };
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let photographer: ReturnType<typeof apiClient>;
  let eventA: EventDto;
  let eventB: EventDto;
  let photographerUser: PublicUser;

  beforeAll(async () => {
    dorsal = await startDorsal();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    eventA = (await admin.post<EventDto>("/api/events", { name: "Carrera A", date: "2026-12-06" })).body;
    eventB = (await admin.post<EventDto>("/api/events", { name: "Carrera B", date: "2026-12-13" })).body;
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("lets an admin create a photographer assigned to one event, with the email unique", async () => {
    const short = await admin.post("/api/users", {
      name: "Ana Fotógrafa",
      ...credentials,
      password: "12345",
      role: "photographer",
      assignedEventId: eventA.id,
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain("La contraseña debe tener al menos 6 caracteres");

    const created = await admin.post<{ success: boolean; user: PublicUser }>("/api/users", {
      name: "Ana Fotógrafa",
      ...credentials,
      role: "photographer",
      assignedEventId: eventA.id,
    });
    expect(created.status).toBe(201);
    photographerUser = created.body.user;
    expect(photographerUser).toMatchObject({
      email: "foto.grafa@dorsal.test",
      name: "Ana Fotógrafa",
      role: "photographer",
      assignedEventId: eventA.id,
      lastLogin: null,
    });
    expect(photographerUser).not.toHaveProperty("passwordHash");

    const again = await admin.post("/api/users", {
      name: "Otra",
      email: "foto.grafa@DORSAL.test",
      password: "otra-clave",
      role: "photographer",
      assignedEventId: eventB.id,
    });
    expect(again.status).toBe(409);

    const noEvent = await admin.post("/api/users", {
      name: "Sin evento",
      email: "sin.evento@dorsal.test",
      password: "secreto1",
      role: "photographer",
      assignedEventId: 9999,
    });
    expect(noEvent.status).toBe(400);

    const list = await allUsers(admin);
    expect(list.map((user) => user.email).sort()).toEqual([dorsal.adminEmail, "foto.grafa@dorsal.test"].sort());
    expect(JSON.stringify(list)).not.toContain("scrypt");
  });

  it("signs the photographer in through the same login", async () => {
    const login = await apiClient(dorsal.url).post<{ token: string; user: PublicUser }>("/api/auth/login", credentials);
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: "photographer", assignedEventId: eventA.id });
    photographer = apiClient(dorsal.url, login.body.token);
  });

  it("uploads to the assigned event (presigned and multipart), and the photos are processed", async () => {
    const bytes = await makeBibPhoto("7301");
    const presigned = await photographer.post<PresignResponse>("/api/photos/presign", {
      eventId: eventA.id,
      files: [{ filename: "a-7301.jpg", contentType: "image/jpeg", size: bytes.length }],
    });
    expect(presigned.status).toBe(200);
    const [upload] = presigned.body.uploads;
    if (!upload) throw new Error("no presigned upload returned");
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: bytes })).status).toBe(200);

    const form = new FormData();
    form.append("eventId", String(eventA.id));
    form.append("photos", new Blob([await makeBibPhoto("7302")], { type: "image/jpeg" }), "a-7302.jpg");
    const multipart = await photographer.post<UploadResponse>("/api/photos/upload", form);
    expect(multipart.status).toBe(200);
    expect(multipart.body.uploaded).toBe(1);

    const processed = await waitFor(
      async () => {
        const progress = await photographer.get<{ processedPhotos: number; failedPhotos: number }>(
          `/api/events/${eventA.id}/processing`,
        );
        expect(progress.status).toBe(200);
        return progress.body.processedPhotos + progress.body.failedPhotos >= 2 ? progress.body : undefined;
      },
      120_000,
      "both photos of the photographer processed",
    );
    expect(processed).toMatchObject({ processedPhotos: 2, failedPhotos: 0, pendingPhotos: 0, totalPhotos: 2 });
    const photo = await photographer.get<PhotoDto>(`/api/photos/${upload.photoId}`);
    expect(photo.status).toBe(200);
    expect(photo.body).toMatchObject({ eventId: eventA.id, processingStatus: "successful" });
  });

  it("refuses uploads and event data of any other event with 403 and the Spanish message", async () => {
    const presigned = await photographer.post("/api/photos/presign", {
      eventId: eventB.id,
      files: [{ filename: "b.jpg", contentType: "image/jpeg", size: 1000 }],
    });
    expect(presigned).toEqual({ status: 403, body: forbidden });

    const form = new FormData();
    form.append("eventId", String(eventB.id));
    form.append("photos", new Blob([await makeBibPhoto("8801")], { type: "image/jpeg" }), "b-8801.jpg");
    expect(await photographer.post("/api/photos/upload", form)).toEqual({ status: 403, body: forbidden });
    expect(await photographer.get(`/api/events/${eventB.id}/processing`)).toEqual({ status: 403, body: forbidden });

    // A photo of event B, uploaded by the admin, is not the photographer's to see either.
    const adminForm = new FormData();
    adminForm.append("eventId", String(eventB.id));
    adminForm.append("photos", new Blob([await makeBibPhoto("8802")], { type: "image/jpeg" }), "b-8802.jpg");
    const adminUpload = await admin.post<UploadResponse>("/api/photos/upload", adminForm);
    const photoOfB = adminUpload.body.photos[0]?.id;
    expect(await photographer.get(`/api/photos/${photoOfB}`)).toEqual({ status: 403, body: forbidden });
  });

  it("refuses every admin endpoint to the photographer with 403, and to no session with 401", async () => {
    const adminOnly: [string, string, unknown?][] = [
      ["GET", "/api/dashboard/stats"],
      ["POST", "/api/events", { name: "Intrusa", date: "2026-12-20" }],
      ["GET", "/api/admin/failed-photos"],
      ["POST", "/api/admin/failed-photos/rerun", { eventId: eventA.id }],
      ["GET", "/api/users"],
      ["POST", "/api/users", { name: "X", email: "x@dorsal.test", password: "secreto1", assignedEventId: eventA.id }],
      ["DELETE", `/api/users/${photographerUser.id}`],
      ["GET", `/api/events/${eventA.id}/photos`],
      ["PUT", `/api/events/${eventA.id}/config`, {}],
    ];
    const anonymous = apiClient(dorsal.url);
    for (const [method, path, body] of adminOnly) {
      const call = (client: ReturnType<typeof apiClient>) => client.request(method, path, body);
      expect({ path, ...(await call(photographer)) }).toEqual({ path, status: 403, body: forbidden });
      expect({ path, status: (await call(anonymous)).status }).toEqual({ path, status: 401 });
    }
    expect((await anonymous.get(`/api/events/${eventA.id}/processing`)).status).toBe(401);
  });

  it("never deletes an admin; deleting the photographer ends its session, and so its uploads, at once", async () => {
    const users = await allUsers(admin);
    const adminUser = users.find((user) => user.role === "admin");
    const refused = await admin.delete(`/api/users/${adminUser?.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: "No se puede eliminar un administrador" });

    expect(await admin.delete(`/api/users/${photographerUser.id}`)).toEqual({ status: 200, body: { success: true } });
    expect((await admin.delete(`/api/users/${photographerUser.id}`)).status).toBe(404);
    const presigned = await photographer.post("/api/photos/presign", {
      eventId: eventA.id,
      files: [{ filename: "tarde.jpg", contentType: "image/jpeg", size: 1000 }],
    });
    expect(presigned).toEqual({ status: 401, body: { success: false, error: messages.unauthorized } });
    expect((await apiClient(dorsal.url).post("/api/auth/login", credentials)).status).toBe(401);
  });
});
