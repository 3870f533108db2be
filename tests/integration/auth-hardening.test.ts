import type {
  EventDto,
  PasswordChangedResponse,
  PublicSettingsDto,
  PublicUser,
  ResetSalesResponse,
  StorageStatusDto,
  UploadResponse,
} from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Sign-in throttling, password changes and the settings endpoints, over HTTP against the embedded
 * runtime: the lock lives in the table, so nothing here is mocked or fast-forwarded.
 */
describe("auth hardening: throttled sign-in, password change, settings", () => {
  const invalidCredentials = { success: false, error: "Credenciales inválidas" };
  const lockedOut = { success: false, error: "Demasiados intentos fallidos. Intenta de nuevo en 15 minutos." };
  const photographerAccount = { email: "fotografo@dorsal.test", password: "clave-fotografo" };
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let photographer: ReturnType<typeof apiClient>;
  let photographerUser: PublicUser;
  let event: EventDto;

  const login = (email: string, password: string) =>
    apiClient(dorsal.url).post<{ token?: string; error?: string }>("/api/auth/login", { email, password });

  beforeAll(async () => {
    dorsal = await startDorsal();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    event = (await admin.post<EventDto>("/api/events", { name: "Carrera de Claves", date: "2026-12-06" })).body;
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Fotógrafo",
      ...photographerAccount,
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    photographerUser = created.body.user;
    const signedIn = await login(photographerAccount.email, photographerAccount.password);
    photographer = apiClient(dorsal.url, signedIn.body.token);
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("serves the system settings to anyone, with the stored photo price default of 15000", async () => {
    const { status, body } = await apiClient(dorsal.url).get<PublicSettingsDto>("/api/settings");
    expect(status).toBe(200);
    expect(body).toEqual({
      photoPrice: 15000,
      currency: "COP",
      currencySymbol: "$",
      maxDownloads: 3,
      downloadValidityDays: 30,
      updatedAt: null,
      // SUPPORT_PHONE is not set: the payment instructions then ask for the organizer's number.
      supportPhone: null,
    });
  });

  it("resets the monthly sales counter for admins only, and stores when", async () => {
    expect((await apiClient(dorsal.url).post("/api/admin/reset-sales")).status).toBe(401);
    expect((await photographer.post("/api/admin/reset-sales")).status).toBe(403);

    const before = Date.now();
    const { status, body } = await admin.post<ResetSalesResponse>("/api/admin/reset-sales");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(Date.parse(body.salesResetAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.salesResetAt)).toBeLessThanOrEqual(Date.now());
    const settings = await apiClient(dorsal.url).get<PublicSettingsDto>("/api/settings");
    expect(settings.body).toMatchObject({ photoPrice: 15000, updatedAt: body.salesResetAt });
  });

  it("reports the embedded store's status to admins, counting the stored originals, and how to move it to AWS", async () => {
    expect((await apiClient(dorsal.url).get("/api/cloud/test")).status).toBe(401);
    expect((await photographer.get("/api/cloud/test")).status).toBe(403);

    const empty = await admin.get<StorageStatusDto>("/api/cloud/test");
    expect(empty).toEqual({
      status: 200,
      body: {
        connected: true,
        bucketName: "dorsal-originals",
        totalFiles: 0,
        totalSize: 0,
        truncated: false,
        credentialsType: "local",
        credentialsConfigured: true,
        error: null,
        location: {
          runtime: "local",
          dataDir: dorsal.dataDir,
          region: null,
          tableName: "dorsal",
          buckets: { originals: "dorsal-originals", derived: "dorsal-derived" },
          derivedFiles: 0,
          derivedSize: 0,
          derivedTruncated: false,
          migrateCommand: `npm run migrate -- --from ${dorsal.dataDir} --to stack:DorsalStateful`,
        },
      },
    });
    // The API never migrates (a copy of gigabytes is no API call): it says how, to admins only.
    expect((await apiClient(dorsal.url).post("/api/demo/migrate-to-cloud")).status).toBe(401);
    expect((await photographer.post("/api/demo/migrate-to-cloud")).status).toBe(403);
    expect((await admin.post("/api/demo/migrate-to-cloud")).body).toMatchObject({
      migrated: false,
      migrateCommand: empty.body.location.migrateCommand,
    });

    const photo = await makeBibPhoto("512");
    const form = new FormData();
    form.append("eventId", String(event.id));
    form.append("photos", new Blob([photo], { type: "image/jpeg" }), "meta-512.jpg");
    const upload = await admin.post<UploadResponse>("/api/photos/upload", form);
    expect(upload.body.uploaded).toBe(1);

    const stored = await admin.get<StorageStatusDto>("/api/cloud/test");
    expect(stored.body).toMatchObject({ connected: true, totalFiles: 1, totalSize: photo.length, error: null });
  });

  it("locks an email after 5 failures, slowing the last ones; then even the right password gets 429", async () => {
    const durations: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const started = Date.now();
      const refused = await login(photographerAccount.email, `equivocada-${attempt}`);
      durations.push(Date.now() - started);
      expect({ attempt, ...refused }).toEqual({ attempt, status: 401, body: invalidCredentials });
    }
    // Failures 4 and 5 waited 0.5 s and 1 s before their password was even checked.
    expect(durations[3]).toBeGreaterThanOrEqual(450);
    expect(durations[4]).toBeGreaterThanOrEqual(950);

    expect(await login(photographerAccount.email, photographerAccount.password)).toEqual({
      status: 429,
      body: lockedOut,
    });
    // The email is what is locked, however it is written; other accounts sign in as usual.
    expect((await login("FOTOGRAFO@dorsal.test", photographerAccount.password)).status).toBe(429);
    expect((await login(dorsal.adminEmail, dorsal.adminPassword)).status).toBe(200);
    // A session issued before the lock keeps working: the lock is about guessing, not about the account.
    expect((await photographer.get("/api/auth/me")).status).toBe(200);
  });

  it("lets an admin set an account's password, which lifts its lock and ends its sessions", async () => {
    const path = `/api/users/${photographerUser.id}/password`;
    expect((await apiClient(dorsal.url).put(path, { newPassword: "nueva-clave-1" })).status).toBe(401);
    expect((await photographer.put(path, { newPassword: "nueva-clave-1" })).status).toBe(403);
    const short = await admin.put(path, { newPassword: "12345" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: "La contraseña debe tener al menos 6 caracteres" });
    expect((await admin.put("/api/users/no-existe-123/password", { newPassword: "nueva-clave-1" })).status).toBe(404);

    expect(await admin.put(path, { newPassword: "nueva-clave-1" })).toEqual({ status: 200, body: { success: true } });
    expect((await photographer.get("/api/auth/me")).status).toBe(401);
    expect((await login(photographerAccount.email, photographerAccount.password)).status).toBe(401);
    const again = await login(photographerAccount.email, "nueva-clave-1");
    expect(again.status).toBe(200);
    photographer = apiClient(dorsal.url, again.body.token);
  });

  it("throttles an email without an account exactly like one with an account", async () => {
    const stranger = "nadie@dorsal.test";
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await login(stranger, `intento-${attempt}`)).toEqual({ status: 401, body: invalidCredentials });
    }
    expect(await login(stranger, "cualquiera")).toEqual({ status: 429, body: lockedOut });
  });

  it("changes the admin's password: checks the current one and the length, ends older sessions", async () => {
    const change = "/api/admin/change-password";
    const newPassword = "otra-clave-segura";
    expect((await apiClient(dorsal.url).post(change, { currentPassword: "x", newPassword })).status).toBe(401);
    expect(
      (await photographer.post(change, { currentPassword: photographerAccount.password, newPassword })).status,
    ).toBe(403);

    const short = await admin.post(change, { currentPassword: dorsal.adminPassword, newPassword: "12345" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ success: false, error: "La contraseña debe tener al menos 6 caracteres" });

    const wrong = await admin.post(change, { currentPassword: "no-es-la-actual", newPassword });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      success: false,
      error: "No se pudo cambiar la contraseña. Verifique la contraseña actual.",
    });
    // A refused change leaves the session alone.
    expect((await admin.get("/api/users")).status).toBe(200);

    const otherSession = apiClient(dorsal.url, await adminToken(dorsal));
    const changed = await admin.post<PasswordChangedResponse>(change, {
      currentPassword: dorsal.adminPassword,
      newPassword,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.success).toBe(true);
    expect(typeof changed.body.token).toBe("string");

    expect((await admin.get("/api/users")).status).toBe(401);
    expect((await otherSession.get("/api/users")).status).toBe(401);
    expect((await apiClient(dorsal.url, changed.body.token).get("/api/users")).status).toBe(200);
    expect(await login(dorsal.adminEmail, dorsal.adminPassword)).toEqual({ status: 401, body: invalidCredentials });
    expect((await login(dorsal.adminEmail, newPassword)).status).toBe(200);
  });
});
