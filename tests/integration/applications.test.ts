import type { EventDto, PublicUser } from "@dorsal/shared";
import {
  type ApprovedApplicationResponse,
  applicationMessages,
  type PhotographerApplicationCreated,
  type PhotographerApplicationDto,
  type PhotographerApplicationPage,
} from "@dorsal/shared/applications";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, allUsers, apiClient } from "../support/api";
import { sampleApplication } from "../support/applications";
import { type RunningDorsal, startDorsal } from "../support/server";

type Client = ReturnType<typeof apiClient>;
type ErrorBody = { success: false; error: string; details?: { path: string; message: string }[] };

/**
 * Photographer applications through the embedded runtime: a visitor applies at /soy-fotografo, an
 * admin lists, approves (which creates the photographer's account, once) or rejects.
 */
describe("photographer applications", () => {
  let dorsal: RunningDorsal;
  let admin: Client;
  let visitor: Client;
  let event: EventDto;

  const submit = async (overrides: Record<string, unknown>) => {
    const created = await visitor.post<PhotographerApplicationCreated>("/api/photographer-applications", {
      ...sampleApplication,
      ...overrides,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const list = async (status?: string) => {
    const page = await admin.get<PhotographerApplicationPage>(
      `/api/admin/photographer-applications${status ? `?status=${status}` : ""}`,
    );
    expect(page.status).toBe(200);
    return page.body.applications;
  };
  const approve = (id: string, eventId: number) =>
    admin.post<ApprovedApplicationResponse & ErrorBody>(`/api/admin/photographer-applications/${id}/approve`, {
      eventId,
    });
  const usersWithEmail = async (email: string) => (await allUsers(admin)).filter((user) => user.email === email);

  beforeAll(async () => {
    dorsal = await startDorsal();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    visitor = apiClient(dorsal.url);
    event = (await admin.post<EventDto>("/api/events", { name: "Maratón de Medellín", date: "2026-12-06" })).body;
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("refuses an incomplete or malformed application with a Spanish message per field", async () => {
    const empty = await visitor.post<ErrorBody>("/api/photographer-applications", {});
    expect(empty.status).toBe(400);
    const messagesByField = Object.fromEntries((empty.body.details ?? []).map((d) => [d.path, d.message]));
    expect(messagesByField).toEqual({
      fullName: applicationMessages.fullName,
      email: applicationMessages.email,
      phone: applicationMessages.phone,
      city: applicationMessages.city,
      experience: applicationMessages.experience,
      availability: applicationMessages.availability,
    });

    const malformed = await visitor.post<ErrorBody>("/api/photographer-applications", {
      ...sampleApplication,
      email: "laura-sin-arroba",
      phone: "12",
      experience: "expert",
      cameraType: "Polaroid",
      portfolioUrl: "javascript:alert(1)",
      message: "x".repeat(2001),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details?.map((d) => d.path).sort()).toEqual(
      ["cameraType", "email", "experience", "message", "phone", "portfolioUrl"].sort(),
    );
    expect(malformed.body.details).toContainEqual({ path: "portfolioUrl", message: applicationMessages.portfolioUrl });
    expect(malformed.body.details).toContainEqual({ path: "message", message: "Máximo 2000 caracteres" });
    expect(await list()).toEqual([]);
  });

  it("takes a visitor's application as pending and lists it for the admin, newest first", async () => {
    const first = await submit({ fullName: "Primera Aplicante", email: "primera@fotos.test" });
    const id = await submit({});
    const pending = await list("pending");
    expect(pending.map((a) => a.id)).toEqual([id, first]);
    expect(pending[0]).toMatchObject({
      fullName: "Laura Gómez",
      email: "laura.gomez@fotos.test",
      city: "Medellín",
      experience: "advanced",
      availability: "weekends",
      cameraType: "Mirrorless",
      lensDetails: null,
      previousEvents: null,
      portfolioUrl: "https://laura-fotos.example.co",
      status: "pending",
      adminNotes: null,
      reviewedAt: null,
      reviewedBy: null,
      photographerUserId: null,
    } satisfies Partial<PhotographerApplicationDto>);
    expect(await list("approved")).toEqual([]);
    expect((await list()).map((a) => a.id)).toEqual([id, first]);

    const paged = await admin.get<PhotographerApplicationPage>("/api/admin/photographer-applications?limit=1");
    expect(paged.body.applications.map((a) => a.id)).toEqual([id]);
    const next = await admin.get<PhotographerApplicationPage>(
      `/api/admin/photographer-applications?limit=1&cursor=${paged.body.cursor}`,
    );
    expect(next.body.applications.map((a) => a.id)).toEqual([first]);
  });

  it("approves once: the new photographer signs in, assigned to the event; a second approval is refused", async () => {
    const [laura] = await list("pending");
    if (!laura) throw new Error("no pending application");
    const approved = await approve(laura.id, event.id);
    expect(approved.status).toBe(200);
    const { credentials } = approved.body;
    expect(credentials).toMatchObject({
      name: "Laura Gómez",
      email: "laura.gomez@fotos.test",
      assignedEventId: event.id,
      eventName: "Maratón de Medellín",
    });
    expect(credentials.password).toMatch(/^[\w-]{16}$/);
    expect(approved.body.application).toMatchObject({
      status: "approved",
      assignedEventId: event.id,
      photographerUserId: credentials.userId,
      reviewedByEmail: dorsal.adminEmail,
    });

    const login = await visitor.post<{ token: string; user: PublicUser }>("/api/auth/login", {
      email: credentials.email,
      password: credentials.password,
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: credentials.userId, role: "photographer", assignedEventId: event.id });

    const again = await approve(laura.id, event.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(applicationMessages.alreadyReviewed);
    expect(await usersWithEmail("laura.gomez@fotos.test")).toHaveLength(1);

    expect((await list("approved")).map((a) => a.id)).toEqual([laura.id]);
    expect((await list("pending")).map((a) => a.id)).not.toContain(laura.id);
    // The password is handed over once: the list never carries it.
    expect(JSON.stringify(await list())).not.toContain(credentials.password);

    // The new account is a photographer's: the review endpoints refuse it.
    const photographer = apiClient(dorsal.url, login.body.token);
    const forbidden = await Promise.all([
      photographer.get("/api/admin/photographer-applications"),
      photographer.post(`/api/admin/photographer-applications/${laura.id}/approve`, { eventId: event.id }),
      photographer.post(`/api/admin/photographer-applications/${laura.id}/reject`, { adminNotes: "no" }),
      photographer.post(`/api/events/${event.id}/pricing`, {}),
    ]);
    expect(forbidden.map((response) => response.status)).toEqual([403, 403, 403, 403]);
  });

  it("lets only one of two simultaneous approvals create the account", async () => {
    const id = await submit({ fullName: "Carlos Ruiz", email: "carlos.ruiz@fotos.test" });
    const results = await Promise.all([approve(id, event.id), approve(id, event.id)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(await usersWithEmail("carlos.ruiz@fotos.test")).toHaveLength(1);
  });

  it("refuses to approve for an email that already has an account, or for a missing event, leaving it pending", async () => {
    const id = await submit({ fullName: "Ya Registrada", email: dorsal.adminEmail });
    const taken = await approve(id, event.id);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(applicationMessages.emailHasAccount(dorsal.adminEmail));

    const noEvent = await approve(id, 9999);
    expect(noEvent.status).toBe(400);
    expect(noEvent.body.details).toEqual([{ path: "eventId", message: "Evento no encontrado" }]);
    expect((await list("pending")).map((a) => a.id)).toContain(id);
    expect(await usersWithEmail(dorsal.adminEmail)).toEqual([expect.objectContaining({ role: "admin" })]);
  });

  it("rejects with the admin's notes, after which it can be neither approved nor rejected again", async () => {
    const id = await submit({ fullName: "Pedro Pérez", email: "pedro@fotos.test" });
    const rejected = await admin.post<PhotographerApplicationDto>(`/api/admin/photographer-applications/${id}/reject`, {
      adminNotes: "  Portafolio sin fotos de carreras  ",
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: "rejected",
      adminNotes: "Portafolio sin fotos de carreras",
      reviewedByEmail: dorsal.adminEmail,
      photographerUserId: null,
    });
    expect(rejected.body.reviewedAt).toEqual(expect.any(String));
    expect((await list("rejected")).map((a) => a.id)).toEqual([id]);

    expect((await approve(id, event.id)).status).toBe(409);
    const twice = await admin.post<ErrorBody>(`/api/admin/photographer-applications/${id}/reject`, {});
    expect(twice.status).toBe(409);
    expect(await usersWithEmail("pedro@fotos.test")).toEqual([]);

    const unknown = await admin.post<ErrorBody>("/api/admin/photographer-applications/0000000000000000000/reject", {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(applicationMessages.notFound);
  });

  it("keeps the review endpoints to signed-in admins and validates the status filter", async () => {
    const [any] = await list();
    if (!any) throw new Error("no application");
    const anonymous = await Promise.all([
      visitor.get("/api/admin/photographer-applications"),
      visitor.post(`/api/admin/photographer-applications/${any.id}/approve`, { eventId: event.id }),
      visitor.post(`/api/admin/photographer-applications/${any.id}/reject`, {}),
    ]);
    expect(anonymous.map((response) => response.status)).toEqual([401, 401, 401]);
    expect((await admin.get("/api/admin/photographer-applications?status=archived")).status).toBe(400);
  });
});
