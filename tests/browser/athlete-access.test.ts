import type { EventDto } from "@dorsal/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, type SignedInTab, signedInTab, signIn, viewports } from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 6, athlete accounts: an athlete creates an account at /athlete-login and goes back to the
 * search signed in (never to another site), and the organizer opens an event to signed-in
 * athletes with its 'Acceso deportistas' switch.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;

const athlete = { name: "Laura Gómez", email: "laura.gomez@corre.test", password: "trote-2026" };

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  const token = await adminToken(dorsal);
  admin = apiClient(dorsal.url, token);
  ({ event } = await seedEventWithBibPhotos(dorsal, token, { name: "Media Maratón de Bogotá", bibs: ["5173"] }));
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const storedRole = "JSON.parse(window.localStorage.getItem('race_photo_user') ?? 'null')?.role ?? null";

describe("athlete login", () => {
  it("creates an athlete account and returns to the search signed in", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/athlete-login?returnTo=/search`);
    await page.getByRole("heading", { name: "Acceso deportistas" }).waitFor();
    await page.getByText("ves y descargas gratis todas tus fotos").waitFor();

    await page.getByRole("tab", { name: "Crear cuenta" }).click();
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.getByText("El nombre es obligatorio").waitFor();

    await page.getByLabel("Nombre completo").fill(athlete.name);
    await page.getByLabel("Correo electrónico").fill(athlete.email);
    await page.getByLabel("Contraseña").fill(athlete.password);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.waitForURL(`${dorsal.url}/search`);
    await page.getByRole("heading", { name: "Encuentra tus fotos" }).waitFor();
    expect(await page.evaluate(storedRole)).toBe("athlete");
    expect(pageErrors).toEqual([]);
  });

  it("refuses a wrong password and never follows a returnTo to another site", async () => {
    const page = await browser.openPage(viewports.desktop);
    await page.goto(`${dorsal.url}/athlete-login?returnTo=//evil.example/search`);
    await page.getByLabel("Correo electrónico").fill(athlete.email);
    await page.getByLabel("Contraseña").fill("no-es-la-clave");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.getByText("Credenciales inválidas").waitFor();
    expect(await page.evaluate(storedRole)).toBeNull();

    await page.getByLabel("Contraseña").fill(athlete.password);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.waitForURL(`${dorsal.url}/search`);
    expect(await page.evaluate(storedRole)).toBe("athlete");
    expect(pageErrors).toEqual([]);
  });
});

describe("athlete access switch", () => {
  it("lets the organizer open an event to signed-in athletes", async () => {
    const page = await browser.openPage(viewports.desktop, { storageState: adminTab });
    await page.goto(`${dorsal.url}/events`);
    const row = page.getByRole("listitem").filter({ hasText: event.name });
    const access = row.getByRole("checkbox", { name: "Acceso deportistas" });
    await access.waitFor({ state: "attached" });
    expect(await access.isChecked()).toBe(false);
    await row.getByText("Los deportistas con cuenta ven y descargan gratis").waitFor();

    await row.getByText("Acceso deportistas", { exact: true }).click();
    await page.getByText("Acceso deportistas activado").waitFor();
    const stored = (await admin.get<EventDto>(`/api/events/${event.id}`)).body;
    expect(stored.requiresAthleteLogin).toBe(true);

    await page.reload();
    await row.getByRole("checkbox", { name: "Acceso deportistas" }).waitFor({ state: "attached" });
    expect(await row.getByRole("checkbox", { name: "Acceso deportistas" }).isChecked()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});

describe("athlete's free downloads", () => {
  it("downloads the original of an open event, signed in as an athlete", async () => {
    const page = await browser.openPage(viewports.phone);
    await signIn(page, `${dorsal.url}/athlete-login?returnTo=/search`, athlete.email, athlete.password);
    await page.getByRole("heading", { name: "Encuentra tus fotos" }).waitFor();
    await page.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=5173`);
    await page.getByRole("button", { name: "Descargar gratis" }).waitFor();
    // The photos are the athlete's for free: nothing here offers to sell them.
    expect(await page.getByRole("link", { name: /Comprar/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Comprar|Tengo un código/ }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Precios" }).count()).toBe(0);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Descargar gratis" }).click();
    expect((await download).suggestedFilename()).toBe("bib-5173-0.jpg");
    await page.getByRole("button", { name: "Descargada" }).waitFor();
  });
});
