import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBrowserHarness, signIn, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The settings screen and the admin header through the built frontend: the admin changes the
 * password and signs in with the new one, the phone menu opens, closes and navigates, and a
 * session the server no longer accepts is sent back to the admin login.
 */

let dorsal: RunningDorsal;
/** Changes in the first test; later tests sign in with whatever it is now. */
let adminPassword: string;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
const { desktop, phone } = viewports;

beforeAll(async () => {
  dorsal = await startDorsal();
  adminPassword = dorsal.adminPassword;
  await browser.launch();
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

/** A string expression because the test runner's types have no DOM; it runs inside the page. */
const storedSession = (page: Page) => page.evaluate<string | null>("window.localStorage.getItem('race_photo_user')");

async function signInAsAdmin(page: Page, password = adminPassword) {
  await signIn(page, `${dorsal.url}/admin-login`, dorsal.adminEmail, password);
  await page.getByRole("heading", { name: "Dashboard General" }).waitFor();
}

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

describe("settings screen", () => {
  /** The session as stored before the password change, to replay it afterwards. */
  let sessionBeforeChange: string | null = null;

  it("changes the admin's password with the spec's checks, and the new one signs in", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page);
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Config" }).click();
    await page.getByRole("heading", { name: "Configuración", level: 1 }).waitFor();
    sessionBeforeChange = await storedSession(page);

    const current = page.getByLabel("Contraseña actual", { exact: true });
    const next = page.getByLabel("Nueva contraseña", { exact: true });
    const confirm = page.getByLabel("Confirmar nueva contraseña", { exact: true });
    const submit = page.getByRole("button", { name: "Cambiar contraseña" });
    expect(await submit.isDisabled()).toBe(true);

    await current.fill(adminPassword);
    await next.fill("nueva-clave-1");
    expect(await submit.isDisabled()).toBe(true);
    await confirm.fill("otra-clave-1");
    await submit.click();
    await page.getByText("Las contraseñas no coinciden").waitFor();

    await next.fill("12345");
    await confirm.fill("12345");
    await submit.click();
    await page.getByText("La contraseña debe tener al menos 6 caracteres").waitFor();

    await current.fill("no-es-la-actual");
    await next.fill("nueva-clave-1");
    await confirm.fill("nueva-clave-1");
    await submit.click();
    await page.getByText("No se pudo cambiar la contraseña. Verifique la contraseña actual.").waitFor();
    expect(pathOf(page)).toBe("/settings");

    await current.fill(adminPassword);
    await submit.click();
    await page.getByText("Contraseña cambiada").waitFor();
    adminPassword = "nueva-clave-1";
    expect(await current.inputValue()).toBe("");
    // The server ended the old session and issued a new one, which the screen keeps using.
    const stored = JSON.parse((await storedSession(page)) ?? "{}") as { token?: string };
    expect(stored.token).toEqual(expect.any(String));
    expect(stored.token).not.toBe(JSON.parse(sessionBeforeChange ?? "{}").token);
    await page.reload();
    await page.getByTestId("storage-status").getByText("Conectado").waitFor();

    await page.getByRole("button", { name: "Salir" }).click();
    await page.waitForURL(`${dorsal.url}/`);
    await signIn(page, `${dorsal.url}/admin-login`, dorsal.adminEmail, dorsal.adminPassword);
    await page.getByText("Credenciales inválidas").waitFor();
    await signInAsAdmin(page, "nueva-clave-1");
    expect(pageErrors).toEqual([]);
  });

  it("sends a session ended by the password change back to the admin login", async () => {
    expect(sessionBeforeChange).not.toBeNull();
    const page = await browser.openPage(desktop);
    await page.goto(`${dorsal.url}/admin-login`);
    await page.evaluate(`window.localStorage.setItem('race_photo_user', ${JSON.stringify(sessionBeforeChange)})`);
    await page.goto(`${dorsal.url}/settings`);
    await page.waitForURL(`${dorsal.url}/admin-login`);
    await page.getByText("Tu sesión terminó. Ingresa de nuevo para continuar.").waitFor();
    expect(await storedSession(page)).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it("resets the monthly sales counter only after confirming, and shows the storage status", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page);
    await page.goto(`${dorsal.url}/settings`);
    const storage = page.getByTestId("storage-status");
    await storage.getByText("Conectado").waitFor();
    expect(await storage.getByTestId("storage-files").textContent()).toBe("0");

    const reset = page.getByRole("button", { name: "Resetear contador de ventas" });
    await reset.click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("¿Resetear el contador de ventas?").waitFor();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByText("Contador de ventas reseteado").count()).toBe(0);

    await reset.click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Resetear", exact: true }).click();
    await page.getByText("Contador de ventas reseteado").waitFor();

    await page.getByRole("link", { name: "Gestionar usuarios" }).click();
    await page.waitForURL(`${dorsal.url}/user-management`);
    expect(pageErrors).toEqual([]);
  });
});

describe("admin header on a phone", () => {
  it("toggles the menu, highlights the current screen, closes on a choice and opens the event form", async () => {
    const page = await browser.openPage(phone);
    await signInAsAdmin(page);
    const toggle = page.getByRole("button", { name: "Abrir menú" });
    const menu = page.locator("#admin-mobile-menu");
    // Collapsed: no navigation shown until asked for.
    expect(await page.getByRole("link", { name: "Stats" }).count()).toBe(0);

    await toggle.click();
    await menu.getByText("Organizador Admin").waitFor();
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual([
      "Dashboard",
      "Eventos",
      "Subir",
      "Buscar",
      "Stats",
      "Códigos",
      "Performance",
      "Precios",
      "Usuarios",
      "Config",
      "Nuevo Evento",
    ]);
    expect(await menu.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");
    await page.getByRole("button", { name: "Cerrar menú" }).click();
    await menu.waitFor({ state: "detached" });

    await toggle.click();
    await menu.getByRole("link", { name: "Config" }).click();
    await page.getByRole("heading", { name: "Configuración", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/settings");
    await menu.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Abrir menú" }).click();
    expect(await menu.getByRole("link", { name: "Config" }).getAttribute("aria-current")).toBe("page");
    expect(await menu.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBeNull();
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Abrir menú" }).click();
    await menu.getByRole("link", { name: "Nuevo Evento" }).click();
    await page.getByRole("heading", { name: "Gestión de Eventos" }).waitFor();
    expect(pathOf(page)).toBe("/events?new=1");
    // Ready to type the new event's name.
    await page.keyboard.type("Carrera Nocturna");
    expect(await page.getByRole("textbox", { name: /Nombre del evento/ }).inputValue()).toBe("Carrera Nocturna");
    await menu.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });
});
