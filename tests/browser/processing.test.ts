import { randomBytes } from "node:crypto";
import {
  type EventDto,
  type FailedPhotoPage,
  type PublicUser,
  photoFailureReasons,
  type UploadResponse,
} from "@dorsal/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import {
  animationsDone,
  createBrowserHarness,
  type SignedInTab,
  signedInTab,
  signIn,
  signInAsAdmin,
  viewports,
} from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Pipeline operations through the organizer's screens: the dashboard's 'Procesamiento' card shows
 * each active event's progress (copies of photos it already had counted apart) and links its
 * failures to the failed-photos screen, where a photo is re-run ('Reintentar') alone or with all
 * the others; a photographer only ever sees uploads.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;
let quiet: EventDto;

const { desktop, phone } = viewports;
const brokenFile = "rota-9001.jpg";

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  admin = apiClient(dorsal.url, await adminToken(dorsal));
  event = (await admin.post<EventDto>("/api/events", { name: "Carrera de la Montaña", date: "2026-08-16" })).body;
  quiet = (await admin.post<EventDto>("/api/events", { name: "Carrera sin errores", date: "2026-08-23" })).body;

  const form = new FormData();
  form.append("eventId", String(event.id));
  const good = await makeBibPhoto("9002");
  form.append("photos", new Blob([good], { type: "image/jpeg" }), "buena-9002.jpg");
  // JPEG magic bytes, then garbage: stored, then refused by the decoder.
  const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), randomBytes(4000)]);
  form.append("photos", new Blob([broken], { type: "image/jpeg" }), brokenFile);
  expect((await admin.post<UploadResponse>("/api/photos/upload", form)).body.uploaded).toBe(2);
  await waitFor(
    async () => {
      const current = (await admin.get<EventDto>(`/api/events/${event.id}`)).body;
      return current.photoCount === 1 && current.failedPhotos === 1 ? true : undefined;
    },
    90_000,
    "one photo processed and one failed",
  );
  // The good photo sent again: a copy the event already has, never a photo left to process.
  const again = new FormData();
  again.append("eventId", String(event.id));
  again.append("photos", new Blob([good], { type: "image/jpeg" }), "otra-vez-9002.jpg");
  expect((await admin.post<UploadResponse>("/api/photos/upload", again)).body.uploaded).toBe(1);
  await waitFor(
    async () => ((await admin.get<EventDto>(`/api/events/${event.id}`)).body.duplicatePhotos === 1 ? true : undefined),
    60_000,
    "the copy to be found a duplicate",
  );
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const attemptsOf = async (photoName: string) =>
  (await admin.get<FailedPhotoPage>("/api/admin/failed-photos")).body.photos.find(
    (photo) => photo.originalFilename === photoName,
  )?.attempts;

describe("processing screens", () => {
  it("shows each active event's progress on the dashboard and links its failures", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);

    const card = page.getByRole("region", { name: "Procesamiento" });
    const row = card.getByTestId("processing-event").filter({ hasText: event.name });
    // Three photos received, one of them a copy: the event has two, both settled.
    await row.getByText("Procesadas 1 de 2 · 1 repetida", { exact: true }).waitFor();
    expect(await row.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    await card.getByTestId("processing-event").filter({ hasText: quiet.name }).getByText("Procesadas 0 de 0").waitFor();
    await page.screenshot({ path: "/tmp/processing-dashboard.png", fullPage: true });

    await row.getByRole("link", { name: "1 con errores" }).click();
    await page.waitForURL(`${dorsal.url}/processing?eventId=${event.id}`);
    await page.getByRole("heading", { name: "Fotos con errores" }).waitFor();
    const failed = page.getByTestId("failed-photo").filter({ hasText: brokenFile });
    await failed.getByText(event.name).waitFor();
    await failed.getByText(photoFailureReasons.unreadable).waitFor();
    await failed.getByText("1 intento").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("re-runs one photo with 'Reintentar', and all after confirming", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    // The header holds only the spec's items; the dead-letter list is reached from the dashboard.
    await page.getByRole("link", { name: "Fotos con errores", exact: true }).click();
    await page.getByRole("heading", { name: "Fotos con errores" }).waitFor();

    const failed = page.getByTestId("failed-photo").filter({ hasText: brokenFile });
    await failed.getByRole("button", { name: `Reintentar ${brokenFile}` }).click();
    await page.getByText(`${brokenFile}: reintento en curso`).waitFor();
    // It fails again (nothing was fixed) and comes back with the attempt counted.
    await waitFor(async () => ((await attemptsOf(brokenFile)) === 2 ? true : undefined), 60_000, "a second failure");
    await page.reload();
    await failed.getByText("2 intentos").waitFor();
    await page.screenshot({ path: "/tmp/processing-failed-photos.png", fullPage: true });

    await page.getByRole("button", { name: "Reintentar todas" }).click();
    const confirm = page.getByRole("alertdialog", { name: "¿Reintentar todas las fotos con error?" });
    await confirm.getByText("Se procesarán de nuevo 1 foto(s).", { exact: false }).waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/processing-confirm.png" });
    await confirm.getByRole("button", { name: "Reintentar todas" }).click();
    await page.getByText("1 foto(s) enviadas a procesar de nuevo").waitFor();
    await waitFor(async () => ((await attemptsOf(brokenFile)) === 3 ? true : undefined), 60_000, "a third failure");
    expect(pageErrors).toEqual([]);
  });

  it("shows the empty state for an event without failures, on a phone too", async () => {
    const page = await browser.openPage(phone, { storageState: adminTab });
    await page.goto(`${dorsal.url}/processing?eventId=${quiet.id}`);
    await page.getByText("No hay fotos con errores").waitFor();
    expect(await page.getByRole("button", { name: "Reintentar todas" }).isDisabled()).toBe(true);
    await page.screenshot({ path: "/tmp/processing-empty-phone.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("routes a signed-in photographer to the upload screen only", async () => {
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Pablo Fotógrafo",
      email: "pablo@dorsal.test",
      password: "secreto1",
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const page = await browser.openPage(desktop);
    await signIn(page, `${dorsal.url}/photographer-login`, "pablo@dorsal.test", "secreto1");
    await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
    for (const path of ["/dashboard", "/processing", "/events"]) {
      await page.goto(`${dorsal.url}${path}`);
      await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
      expect(await page.getByRole("heading", { name: "Fotos con errores" }).count()).toBe(0);
      expect(await page.getByRole("navigation", { name: "Administración" }).count()).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  });
});
