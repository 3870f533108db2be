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
  await page.getByRole("heading", { name: "Panel general" }).waitFor();
}

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

/** Spec §2.3's menu in Spanish (issue 17): 'Performance' is 'Rendimiento'. */
const menuLabels = [
  "Panel",
  "Eventos",
  "Subir",
  "Buscar",
  "Estadísticas",
  "Códigos",
  "Rendimiento",
  "Precios",
  "Usuarios",
  "Configuración",
];

describe("settings screen", () => {
  /** The session as stored before the password change, to replay it afterwards. */
  let sessionBeforeChange: string | null = null;

  it("changes the admin's password with the spec's checks, and the new one signs in", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page);
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Configuración" }).click();
    await page.getByRole("heading", { name: "Configuración", level: 1 }).waitFor();
    sessionBeforeChange = await storedSession(page);

    // The storage card gives the command that moves this data dir to AWS, copied whole, and its steps.
    const command = `npm run migrate -- --from ${dorsal.dataDir} --to stack:DorsalStateful`;
    expect(await page.getByTestId("migrate-command").textContent()).toBe(command);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copiar comando" }).click();
    await page.getByRole("button", { name: "Comando copiado" }).waitFor();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(command);
    await page.getByRole("link", { name: "Cómo migrar, paso a paso" }).click();
    await page.getByRole("heading", { name: "Almacenamiento en la nube", level: 1 }).waitFor();
    expect(await page.getByTestId("migrate-command").textContent()).toBe(command);
    await page.goBack();
    await page.getByRole("heading", { name: "Configuración", level: 1 }).waitFor();

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

  it("restarts the month's sales only after confirming, and shows the storage status in plain words", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page);
    await page.goto(`${dorsal.url}/settings`);
    const storage = page.getByTestId("storage-status");
    await storage.getByText("Almacenamiento conectado").waitFor();
    expect(await storage.getByTestId("storage-files").textContent()).toBe("0");
    // Issue 17: the organizer's screen names no storage internals (they belong on the ops screens).
    const settingsText = (await page.getByRole("main").textContent()) ?? "";
    for (const internal of ["Bucket", "dorsal-originals", "Credenciales", "IAM", "npm start"]) {
      expect(settingsText).not.toContain(internal);
    }

    const reset = page.getByRole("button", { name: "Reiniciar ventas del mes" });
    await reset.click();
    const dialog = page.getByRole("alertdialog", { name: "¿Reiniciar las ventas del mes?" });
    await dialog.getByText("Las ventas ya registradas no se borran.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByText("Ventas del mes reiniciadas").count()).toBe(0);

    await reset.click();
    await dialog.getByRole("button", { name: "Reiniciar", exact: true }).click();
    await page.getByText("Ventas del mes reiniciadas").waitFor();

    await page.getByRole("link", { name: "Gestionar usuarios" }).click();
    await page.waitForURL(`${dorsal.url}/user-management`);

    // Issue 22 item 3: the ops screen says where the data is and the exact command that moves it to AWS.
    await page.goto(`${dorsal.url}/cloud-storage-config`);
    await page.getByRole("heading", { name: "En este equipo" }).waitFor();
    await page.getByText(dorsal.dataDir, { exact: true }).waitFor();
    expect(await page.getByTestId("migrate-command").textContent()).toBe(
      `npm run migrate -- --from ${dorsal.dataDir} --to stack:DorsalStateful`,
    );
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
    expect(await page.getByRole("link", { name: "Estadísticas" }).count()).toBe(0);

    await toggle.click();
    await menu.getByText("Organizador Admin").waitFor();
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual([...menuLabels, "Nuevo Evento"]);
    expect(await menu.getByRole("link", { name: "Panel" }).getAttribute("aria-current")).toBe("page");
    await page.getByRole("button", { name: "Cerrar menú" }).click();
    await menu.waitFor({ state: "detached" });

    await toggle.click();
    await menu.getByRole("link", { name: "Configuración" }).click();
    await page.getByRole("heading", { name: "Configuración", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/settings");
    await menu.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Abrir menú" }).click();
    expect(await menu.getByRole("link", { name: "Configuración" }).getAttribute("aria-current")).toBe("page");
    expect(await menu.getByRole("link", { name: "Panel" }).getAttribute("aria-current")).toBeNull();
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Abrir menú" }).click();
    await menu.getByRole("link", { name: "Nuevo Evento" }).click();
    await page.getByRole("heading", { name: "Gestión de Eventos", level: 1 }).waitFor();
    expect(pathOf(page)).toBe("/events?new=1");
    // Ready to type the new event's name.
    await page.keyboard.type("Carrera Nocturna");
    expect(await page.getByRole("textbox", { name: /Nombre del evento/ }).inputValue()).toBe("Carrera Nocturna");
    await menu.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });
});

describe("admin header on a desktop", () => {
  it("names every screen in Spanish on one row, and offers no screen that is not built yet", async () => {
    // 1280 px is the narrowest width with the full header (Chakra's xl).
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page);
    const nav = page.getByRole("navigation", { name: "Administración" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(menuLabels);
    expect((await nav.boundingBox())?.height).toBeLessThan(48);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(desktop.width);

    // Issue 21 builds the ops screens: /preflight (tests/browser/preflight.test.ts), not in the
    // spec's header, and /performance-dashboard (tests/browser/performance.test.ts), which is.
    await page.goto(`${dorsal.url}/preflight`);
    await page.getByRole("heading", { name: "Verificación previa", level: 1 }).waitFor();
    expect(await page.getByText("Próximamente").count()).toBe(0);
    expect(await nav.getByRole("link", { name: /Preflight|Verificación/ }).count()).toBe(0);
    await nav.getByRole("link", { name: "Rendimiento" }).click();
    await page.getByRole("heading", { name: "Rendimiento", level: 1 }).waitFor();
    expect(await nav.getByRole("link", { name: "Rendimiento" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByText("Próximamente").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
