import { type EventAssignmentDto, type EventDto, messages, type PublicUser } from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, allUsers, apiClient } from "../support/api";
import { sharedDorsal } from "../support/server";

/**
 * User management beyond creation: an admin edits accounts (the email stays unique) and gives a
 * photographer more events or takes them away; the upload check follows every change at once.
 */
describe("user management and event assignments", () => {
  const forbidden = { success: false, error: "No tienes permiso para realizar esta acción" };
  const credentials = { email: "lucia@dorsal.test", password: "secreto1" };
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let photographer: ReturnType<typeof apiClient>;
  let first: EventDto;
  let second: EventDto;
  let user: PublicUser;

  const presign = (client: ReturnType<typeof apiClient>, eventId: number) =>
    client.post("/api/photos/presign", {
      eventId,
      files: [{ filename: "foto.jpg", contentType: "image/jpeg", size: 1000 }],
    });
  // Through every page: the runtime is shared, and other suites' accounts come first.
  const listed = async (userId: string) => (await allUsers(admin)).find((candidate) => candidate.id === userId);

  beforeAll(async () => {
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    first = (
      await admin.post<EventDto>("/api/events", { name: "Media Maratón", date: "2026-10-04", location: "Medellín" })
    ).body;
    second = (await admin.post<EventDto>("/api/events", { name: "Trail Nocturno", date: "2026-10-18" })).body;
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Lucía Fotógrafa",
      ...credentials,
      role: "photographer",
      assignedEventId: first.id,
    });
    expect(created.status).toBe(201);
    user = created.body.user;
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", credentials);
    expect(login.status).toBe(200);
    photographer = apiClient(dorsal.url, login.body.token);
  });

  it("records the creation's event as the first assignment and names it in the user list", async () => {
    const assignments = await admin.get<EventAssignmentDto[]>(`/api/users/${user.id}/events`);
    expect(assignments.status).toBe(200);
    expect(assignments.body).toEqual([
      {
        assignmentId: expect.any(String),
        eventId: first.id,
        eventName: "Media Maratón",
        eventLocation: "Medellín",
        role: "photographer",
        notes: null,
        assignedAt: expect.any(String),
      },
    ]);

    const row = await listed(user.id);
    expect(row).toMatchObject({ role: "photographer", latestEventName: "Media Maratón", createdAt: user.createdAt });
    expect(row?.lastLogin).toEqual(expect.any(String));
    const adminRow = (await allUsers(admin)).find((entry) => entry.email === dorsal.adminEmail);
    expect(adminRow?.latestEventName).toBeNull();
  });

  it("lets the photographer upload to a second event once it is assigned, and only once", async () => {
    expect(await presign(photographer, second.id)).toEqual({ status: 403, body: forbidden });

    const missing = await admin.post(`/api/users/${user.id}/events`, { role: "assistant" });
    expect(missing).toMatchObject({ status: 400, body: { error: "Debe seleccionar un evento" } });
    const unknown = await admin.post(`/api/users/${user.id}/events`, { eventId: 9999 });
    expect(unknown).toMatchObject({ status: 400, body: { error: "Evento no encontrado" } });

    const assigned = await admin.post<{ assignment: EventAssignmentDto }>(`/api/users/${user.id}/events`, {
      eventId: second.id,
      role: "lead_photographer",
      notes: "  Zona de meta ",
    });
    expect(assigned.status).toBe(201);
    expect(assigned.body.assignment).toMatchObject({
      eventId: second.id,
      eventName: "Trail Nocturno",
      role: "lead_photographer",
      notes: "Zona de meta",
    });
    const again = await admin.post(`/api/users/${user.id}/events`, { eventId: second.id });
    expect(again).toEqual({
      status: 409,
      body: { success: false, error: "Este evento ya está asignado al fotógrafo" },
    });

    expect((await presign(photographer, second.id)).status).toBe(200);
    expect((await photographer.get(`/api/events/${second.id}/processing`)).status).toBe(200);
    expect((await presign(photographer, first.id)).status).toBe(200);

    const own = await photographer.get<EventAssignmentDto[]>("/api/users/me/events");
    expect(own.status).toBe(200);
    expect(own.body.map((assignment) => assignment.eventId)).toEqual([second.id, first.id]);
    expect((await listed(user.id))?.latestEventName).toBe("Trail Nocturno");
  });

  it("revokes the upload right the moment an event is unassigned", async () => {
    expect(await admin.delete(`/api/users/${user.id}/events/${second.id}`)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await presign(photographer, second.id)).toEqual({ status: 403, body: forbidden });
    expect(await photographer.get(`/api/events/${second.id}/processing`)).toEqual({ status: 403, body: forbidden });
    expect((await presign(photographer, first.id)).status).toBe(200);

    expect((await admin.delete(`/api/users/${user.id}/events/${second.id}`)).status).toBe(404);
    expect((await admin.get<EventAssignmentDto[]>(`/api/users/${user.id}/events`)).body).toHaveLength(1);
    expect((await listed(user.id))?.latestEventName).toBe("Media Maratón");
  });

  it("edits name and email, keeping emails unique and freeing the old one", async () => {
    const blank = await admin.put(`/api/users/${user.id}`, {
      name: " ",
      email: credentials.email,
      role: "photographer",
    });
    expect(blank).toMatchObject({ status: 400, body: { error: "Todos los campos son obligatorios" } });

    const taken = await admin.put(`/api/users/${user.id}`, {
      name: "Lucía",
      email: dorsal.adminEmail.toUpperCase(),
      role: "photographer",
    });
    expect(taken).toEqual({ status: 409, body: { success: false, error: "Ya existe un usuario con ese email" } });

    const renamed = await admin.put<{ user: PublicUser }>(`/api/users/${user.id}`, {
      name: "Lucía Restrepo",
      email: "Lucia.Restrepo@dorsal.test",
      role: "photographer",
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user).toMatchObject({
      id: user.id,
      name: "Lucía Restrepo",
      email: "lucia.restrepo@dorsal.test",
      role: "photographer",
    });
    expect(await listed(user.id)).toMatchObject({ name: "Lucía Restrepo", email: "lucia.restrepo@dorsal.test" });

    const anonymous = apiClient(dorsal.url);
    expect((await anonymous.post("/api/auth/login", credentials)).status).toBe(401);
    const moved = await anonymous.post<{ token: string }>("/api/auth/login", {
      email: "lucia.restrepo@dorsal.test",
      password: credentials.password,
    });
    expect(moved.status).toBe(200);
    photographer = apiClient(dorsal.url, moved.body.token);
    // The old email was released: a new account may take it.
    const reuse = await admin.post("/api/users", {
      name: "Otra Lucía",
      ...credentials,
      role: "photographer",
      assignedEventId: second.id,
    });
    expect(reuse.status).toBe(201);
  });

  it("changes the role: a photographer made a user is signed out and can no longer upload; an admin cannot demote themselves", async () => {
    expect((await presign(photographer, first.id)).status).toBe(200);
    const demoted = await admin.put<{ user: PublicUser }>(`/api/users/${user.id}`, {
      name: "Lucía Restrepo",
      email: "lucia.restrepo@dorsal.test",
      role: "user",
    });
    expect(demoted.status).toBe(200);
    expect(demoted.body.user.role).toBe("user");
    // The session carried the photographer's role: it ends with it.
    expect(await presign(photographer, first.id)).toEqual({
      status: 401,
      body: { success: false, error: messages.unauthorized },
    });
    const signedInAgain = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email: "lucia.restrepo@dorsal.test",
      password: credentials.password,
    });
    expect(await presign(apiClient(dorsal.url, signedInAgain.body.token), first.id)).toEqual({
      status: 403,
      body: forbidden,
    });
    expect(await listed(user.id)).toMatchObject({ role: "user", latestEventName: null });
    const notPhotographer = await admin.post(`/api/users/${user.id}/events`, { eventId: second.id });
    expect(notPhotographer).toMatchObject({
      status: 400,
      body: { error: "Solo los fotógrafos pueden tener eventos asignados" },
    });

    const self = (await allUsers(admin)).find((entry) => entry.email === dorsal.adminEmail);
    const demoteSelf = await admin.put(`/api/users/${self?.id}`, {
      name: "Administrador",
      email: dorsal.adminEmail,
      role: "user",
    });
    expect(demoteSelf).toEqual({ status: 403, body: { success: false, error: "No puedes cambiar tu propio rol" } });
    const renameSelf = await admin.put(`/api/users/${self?.id}`, {
      name: "Organizadora",
      email: dorsal.adminEmail,
      role: "admin",
    });
    expect(renameSelf.status).toBe(200);
    expect(await admin.put("/api/users/desconocido1", { name: "X", email: "x@dorsal.test", role: "user" })).toEqual({
      status: 404,
      body: { success: false, error: "Usuario no encontrado" },
    });
  });

  it("answers 401 without a session and 403 to a photographer on every new endpoint", async () => {
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Pedro",
      email: "pedro@dorsal.test",
      password: "secreto1",
      role: "photographer",
      assignedEventId: first.id,
    });
    const pedro = created.body.user;
    const pedroToken = (
      await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
        email: "pedro@dorsal.test",
        password: "secreto1",
      })
    ).body.token;
    const asPhotographer = apiClient(dorsal.url, pedroToken);
    const anonymous = apiClient(dorsal.url);
    const endpoints: [string, string, unknown?][] = [
      ["PUT", `/api/users/${pedro.id}`, { name: "Pedro", email: "pedro@dorsal.test", role: "admin" }],
      ["GET", `/api/users/${pedro.id}/events`],
      ["POST", `/api/users/${pedro.id}/events`, { eventId: second.id }],
      ["DELETE", `/api/users/${pedro.id}/events/${first.id}`],
    ];
    for (const [method, path, body] of endpoints) {
      const call = (client: ReturnType<typeof apiClient>) => client.request(method, path, body);
      expect({ path, ...(await call(asPhotographer)) }).toEqual({ path, status: 403, body: forbidden });
      expect({ path, status: (await call(anonymous)).status }).toEqual({ path, status: 401 });
    }
    expect((await anonymous.get("/api/users/me/events")).status).toBe(401);
    expect(await admin.get("/api/users/me/events")).toEqual({ status: 403, body: forbidden });
    // Nothing the photographer tried took effect.
    expect(await listed(pedro.id)).toMatchObject({ role: "photographer", latestEventName: "Media Maratón" });
  });
});
