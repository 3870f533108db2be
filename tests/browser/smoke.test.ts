import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBrowserHarness, signIn, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The first journey through the built frontend served by the embedded runtime: an organizer
 * signs in and lands on the dashboard, on a desktop and on a phone; an organizer with no events
 * is led to create the first one; a mistyped address says so instead of silently going home.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;

const { desktop, phone } = viewports;
const statLabels = ["Eventos Activos", "Fotos Procesadas", "Dorsales Detectados", "Ventas del Mes"];

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const openPage = (viewport: { width: number; height: number }) => browser.openPage(viewport);

/** A string expression because the test runner's types have no DOM; it runs inside the page. */
function storedSession(page: Page): Promise<string | null> {
  return page.evaluate<string | null>("window.localStorage.getItem('race_photo_user')");
}

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

const signInWith = (page: Page, password: string) =>
  signIn(page, `${dorsal.url}/admin-login`, dorsal.adminEmail, password);

async function expectDashboard(page: Page) {
  await page.getByRole("heading", { name: "Panel general", level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/dashboard");
  await page.getByText("Gestión completa de eventos y fotografías").waitFor();

  const cards = page.getByTestId("stat-card");
  // The amount is the last value to render, once the stats call has answered.
  await cards
    .filter({ hasText: "Ventas del Mes" })
    .getByText(/^\$ [\d.]+ COP$/)
    .waitFor();
  expect(await cards.count()).toBe(4);
  for (const [index, label] of statLabels.entries()) {
    const text = (await cards.nth(index).textContent()) ?? "";
    expect(text).toContain(label);
    expect(text).toMatch(/\d/);
  }
  expect(await page.getByText("Error cargando las estadísticas del panel").count()).toBe(0);
  // Spec §2.3: the dashboard's 'Rendimiento' button leads to the performance screen (issue 21).
  expect(await page.getByRole("main").getByRole("link", { name: "Rendimiento" }).getAttribute("href")).toBe(
    "/performance-dashboard",
  );
}

describe("admin sign-in", () => {
  it("takes an organizer to the dashboard with the four stat cards", async () => {
    const page = await openPage(desktop);
    await signInWith(page, dorsal.adminPassword);
    await expectDashboard(page);

    const stored = await storedSession(page);
    expect(JSON.parse(stored ?? "{}")).toMatchObject({ email: dorsal.adminEmail, role: "admin" });
    expect(JSON.parse(stored ?? "{}").token).toEqual(expect.any(String));

    // The session survives a reload, as spec §2.1 requires.
    await page.reload();
    await expectDashboard(page);
    expect(pageErrors).toEqual([]);
  });

  it("works on a phone, with the menu collapsed behind a toggle", async () => {
    const page = await openPage(phone);
    await signInWith(page, dorsal.adminPassword);
    await expectDashboard(page);

    const toggle = page.getByRole("button", { name: "Abrir menú" });
    await toggle.click();
    const menu = page.locator("#admin-mobile-menu");
    await menu.getByRole("link", { name: "Eventos" }).click();
    await page.getByRole("heading", { name: "Gestión de Eventos", level: 1 }).waitFor();
    expect(await menu.count()).toBe(0);

    await page.getByRole("button", { name: "Abrir menú" }).click();
    await page.locator("#admin-mobile-menu").getByRole("button", { name: "Salir" }).click();
    await page.waitForURL(`${dorsal.url}/`);
    expect(await storedSession(page)).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it("shows the server's message for a wrong password and stays on the login page", async () => {
    const page = await openPage(desktop);
    await signInWith(page, `${dorsal.adminPassword}-incorrecta`);
    await page.getByText("Credenciales inválidas").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin-login");
    expect(await storedSession(page)).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it("sends visitors without a session home, and an admin stored without a token to the admin login", async () => {
    const page = await openPage(desktop);
    await page.goto(`${dorsal.url}/dashboard`);
    await page.waitForURL(`${dorsal.url}/`);
    await page.getByRole("link", { name: "Buscar mis fotos" }).waitFor();

    const tokenless = { id: "x", email: dorsal.adminEmail, name: null, role: "admin", assignedEventId: null };
    await page.evaluate(`window.localStorage.setItem('race_photo_user', ${JSON.stringify(JSON.stringify(tokenless))})`);
    await page.goto(`${dorsal.url}/dashboard`);
    await page.waitForURL(`${dorsal.url}/admin-login`);
    await page.getByRole("heading", { name: "Acceso Administrador" }).waitFor();
    expect(await storedSession(page)).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});

describe("first screens", () => {
  it("greets an organizer with no events with 'Crea tu primer evento', which opens the event form", async () => {
    const page = await openPage(desktop);
    await signInWith(page, dorsal.adminPassword);
    const empty = page.getByRole("region", { name: "Crea tu primer evento" });
    await empty.getByText("Sube sus fotos y los corredores las encuentran por su número de dorsal.").waitFor();
    await empty.getByRole("link", { name: "Crear evento" }).click();
    await page.getByRole("heading", { name: "Gestión de Eventos", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/events?new=1");

    // Issue 17 ('Date is required'): the form answers in Spanish.
    await page.getByRole("textbox", { name: /Nombre del evento/ }).fill("Media Maratón de Cali");
    await page.getByRole("button", { name: /^Crear evento$/i }).click();
    await page.getByText("La fecha es obligatoria").waitFor();
    await page.getByLabel(/^Fecha/).fill("2026-06-07");
    await page.getByRole("button", { name: /^Crear evento$/i }).click();
    await page.getByText("Evento creado", { exact: true }).waitFor();

    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Panel" }).click();
    await expectDashboard(page);
    await page.getByRole("region", { name: "Procesamiento" }).getByText("Media Maratón de Cali").waitFor();
    expect(await page.getByRole("region", { name: "Crea tu primer evento" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("says so when the dashboard's figures cannot be read, and 'Reintentar' reads them again", async () => {
    const page = await openPage(phone);
    // The one failure the runtime cannot be asked for: the first read of the figures answers 500.
    let failures = 1;
    await page.route("**/api/dashboard/stats", async (route) => {
      if (failures-- > 0)
        await route.fulfill({ status: 500, json: { success: false, error: "Error interno del servidor" } });
      else await route.continue();
    });
    await signInWith(page, dorsal.adminPassword);
    const error = page.getByRole("alert").filter({ hasText: "Error cargando las estadísticas del panel" });
    await error.getByText("Error interno del servidor").waitFor();
    expect(await page.getByTestId("stat-card").count()).toBe(0);
    await error.getByRole("button", { name: "Reintentar" }).click();
    await expectDashboard(page);
    expect(pageErrors).toEqual([]);
  });

  it("answers a mistyped address with 'Página no encontrada', signed out and inside the admin screens", async () => {
    const page = await openPage(phone);
    await page.goto(`${dorsal.url}/buscar-fotoz`);
    await page.getByRole("heading", { name: "Página no encontrada", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/buscar-fotoz");
    await page.getByRole("main").getByRole("link", { name: "Buscar mis fotos" }).click();
    await page.waitForURL(`${dorsal.url}/search`);
    await page.goBack();
    await page.getByRole("main").getByRole("link", { name: "Ir al inicio" }).click();
    await page.waitForURL(`${dorsal.url}/`);

    await signInWith(page, dorsal.adminPassword);
    await expectDashboard(page);
    await page.goto(`${dorsal.url}/estadisticas-viejas`);
    await page.getByRole("heading", { name: "Página no encontrada", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/estadisticas-viejas");
    await page.getByRole("button", { name: "Abrir menú" }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Ir al panel" }).click();
    await expectDashboard(page);
    expect(pageErrors).toEqual([]);
  });
});
