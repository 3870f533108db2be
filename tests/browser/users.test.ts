import type { EventDto, UserListPage } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { animationsDone, createBrowserHarness, signIn, signInAsAdmin, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * 'Gestión de Usuarios' (spec §2.7): an admin creates a photographer through the inline form (with
 * the spec's validation), the photographer signs in and only ever sees the upload screen with their
 * event, and the admin edits the account, gives it another event and deletes it after confirming.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let race: EventDto;
let lake: EventDto;

const { desktop, phone } = viewports;
const photographer = { name: "Camila Ríos", email: "camila@dorsal.test", password: "secreto1" };

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
  admin = apiClient(dorsal.url, await adminToken(dorsal));
  race = (await admin.post<EventDto>("/api/events", { name: "Gran Fondo Andes", date: "2026-09-13" })).body;
  lake = (await admin.post<EventDto>("/api/events", { name: "Vuelta al Lago", date: "2026-09-27" })).body;
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

async function openUserManagement(page: Page) {
  await signInAsAdmin(page, dorsal);
  await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Usuarios" }).click();
  await page.waitForURL(`${dorsal.url}/user-management`);
  await page.getByRole("heading", { name: "Gestión de Usuarios" }).waitFor();
}

const rowOf = (page: Page, text: string) =>
  page.getByRole("table", { name: "Usuarios" }).getByRole("row").filter({ hasText: text });

describe("user management screen", () => {
  it("creates a photographer through the inline form, with the spec's validation", async () => {
    const page = await browser.openPage(desktop);
    await openUserManagement(page);
    await page.getByText("Administra fotógrafos y usuarios del sistema").waitFor();
    const adminRow = rowOf(page, dorsal.adminEmail);
    await adminRow.getByText("Admin", { exact: true }).waitFor();
    await adminRow.getByText("—", { exact: true }).waitFor();
    // Admins cannot be deleted from the interface (spec §6).
    expect(await adminRow.getByRole("button", { name: /^Eliminar/ }).count()).toBe(0);

    await page.getByRole("button", { name: "Crear Usuario Fotógrafo" }).click();
    const form = page.getByRole("region", { name: "Crear Usuario Fotógrafo" });
    await form.getByText("El fotógrafo solo podrá subir fotos a este evento específico").waitFor();
    const submit = form.getByRole("button", { name: "Crear Usuario" });
    await submit.click();
    await form.getByRole("alert").getByText("Todos los campos son obligatorios").waitFor();

    await form.getByLabel("Nombre Completo").fill(photographer.name);
    await form.getByLabel("Correo electrónico").fill(photographer.email);
    await form.getByLabel("Contraseña").fill("123");
    await submit.click();
    await form.getByRole("alert").getByText("Debe asignar un evento específico al fotógrafo").waitFor();

    const eventChoice = form.getByLabel("Evento Asignado");
    expect(await eventChoice.locator("option").allTextContents()).toEqual([
      "Selecciona un evento",
      "Vuelta al Lago · 27 de septiembre de 2026",
      "Gran Fondo Andes · 13 de septiembre de 2026",
    ]);
    await eventChoice.selectOption(String(race.id));
    await submit.click();
    await form.getByRole("alert").getByText("La contraseña debe tener al menos 6 caracteres").waitFor();

    await form.getByLabel("Contraseña").fill(photographer.password);
    await submit.click();
    await page.getByText("Usuario creado", { exact: true }).waitFor();
    await page.getByText("El usuario fotógrafo ha sido creado exitosamente.").waitFor();
    await form.waitFor({ state: "detached" });

    const row = rowOf(page, photographer.email);
    await row.getByText(photographer.name, { exact: true }).waitFor();
    await row.getByText("Fotógrafo", { exact: true }).waitFor();
    await row.getByText(race.name, { exact: true }).waitFor();
    await row.getByText("Nunca", { exact: true }).waitFor();
    // One vocabulary (issue 17): the columns are Spanish, the moments in the one short date-and-time form.
    expect(await page.getByRole("table", { name: "Usuarios" }).getByRole("columnheader").allTextContents()).toEqual([
      "Usuario",
      "Rol",
      "Evento Asignado",
      "Creado",
      "Último acceso",
      "Acciones",
    ]);
    expect(await row.getByRole("cell").nth(3).textContent()).toMatch(
      /^\d{1,2}\/\d{1,2}\/\d{2},? \d{1,2}:\d{2}\s[ap]\.\s?m\.$/,
    );
    await page.screenshot({ path: "/tmp/users-list.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("signs the photographer in to the upload screen only, offering their event", async () => {
    const page = await browser.openPage(desktop);
    await signIn(page, `${dorsal.url}/photographer-login`, photographer.email, photographer.password);
    await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
    // Spec §2.5's 'Upload Photos' label, in Spanish (issue 17).
    await page.getByRole("banner").getByText("Subir fotos", { exact: true }).waitFor();
    expect(await page.getByText("Upload Photos").count()).toBe(0);
    const eventChoice = page.getByLabel("Evento", { exact: true });
    // Spec §2.5: the assigned event is chosen already.
    await expect.poll(() => eventChoice.inputValue()).toBe(String(race.id));
    expect(await eventChoice.locator("option").allTextContents()).toEqual([
      "Selecciona un evento",
      expect.stringContaining(race.name),
    ]);
    for (const path of ["/events", "/dashboard", "/user-management"]) {
      await page.goto(`${dorsal.url}${path}`);
      await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
      expect(await page.getByRole("heading", { name: "Gestión de Usuarios" }).count()).toBe(0);
      expect(await page.getByRole("navigation", { name: "Administración" }).count()).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  });

  it("edits the photographer, gives them another event, and deletes them after confirming", async () => {
    const page = await browser.openPage(desktop);
    await openUserManagement(page);
    const renamed = "Camila Ríos Vélez";

    await rowOf(page, photographer.email)
      .getByRole("button", { name: `Editar ${photographer.name}` })
      .click();
    let dialog = page.getByRole("dialog", { name: "Editar usuario" });
    await dialog.getByLabel("Nombre Completo").fill(renamed);
    await dialog.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByText("Usuario actualizado", { exact: true }).waitFor();
    await dialog.waitFor({ state: "hidden" });
    await rowOf(page, photographer.email).getByText(renamed, { exact: true }).waitFor();

    await rowOf(page, photographer.email)
      .getByRole("button", { name: `Editar ${renamed}` })
      .click();
    dialog = page.getByRole("dialog", { name: "Editar usuario" });
    const assignments = dialog.getByRole("list", { name: "Eventos asignados" });
    await assignments.getByText(race.name, { exact: true }).waitFor();
    // Spec §5: events already assigned are not offered again.
    const eventChoice = dialog.getByLabel("Evento", { exact: true });
    expect(await eventChoice.locator("option").allTextContents()).toEqual([
      "Selecciona un evento",
      expect.stringContaining(lake.name),
    ]);
    await dialog.getByRole("button", { name: "Asignar evento" }).click();
    await dialog.getByRole("alert").getByText("Debe seleccionar un evento").waitFor();
    await eventChoice.selectOption(String(lake.id));
    await dialog.getByLabel("Rol en el evento").selectOption({ label: "Asistente" });
    await dialog.getByLabel("Notas").fill("Zona de meta");
    await dialog.getByRole("button", { name: "Asignar evento" }).click();
    await page.getByText("Evento asignado", { exact: true }).waitFor();
    const added = assignments.getByRole("listitem").filter({ hasText: lake.name });
    await added.getByText("Asistente", { exact: true }).waitFor();
    await added.getByText("Zona de meta").waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/users-edit-dialog.png" });
    await dialog.getByRole("button", { name: "Cerrar" }).click();
    await dialog.waitFor({ state: "hidden" });
    // The newest assignment is the one the list names.
    await rowOf(page, photographer.email).getByText(lake.name, { exact: true }).waitFor();

    await rowOf(page, photographer.email)
      .getByRole("button", { name: `Eliminar ${renamed}` })
      .click();
    const confirm = page.getByRole("alertdialog", { name: "¿Eliminar usuario?" });
    await confirm.getByText(photographer.email, { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Eliminar", exact: true }).click();
    await page.getByText("Usuario eliminado", { exact: true }).waitFor();
    await rowOf(page, photographer.email).waitFor({ state: "detached" });
    const users = (await admin.get<UserListPage>("/api/users")).body.users;
    expect(users.map((user) => user.email)).toEqual([dorsal.adminEmail]);
    expect(pageErrors).toEqual([]);
  });

  it("shows each user as a card on a phone, after a list that could not be read is read again", async () => {
    const page = await browser.openPage(phone);
    await signInAsAdmin(page, dorsal);
    // The connection drops for the first read of the list (the runtime itself cannot be asked to).
    let drops = 1;
    await page.route("**/api/users?*", async (route) => {
      if (drops-- > 0) await route.abort("internetdisconnected");
      else await route.continue();
    });
    await page.goto(`${dorsal.url}/user-management`);
    const error = page.getByRole("alert").filter({ hasText: "Error cargando usuarios" });
    // Issue 17: the browser's 'Failed to fetch' is not what the organizer reads.
    await error.getByText("No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.").waitFor();
    await error.getByRole("button", { name: "Reintentar" }).click();
    const cards = page.getByRole("list", { name: "Usuarios" });
    await cards.getByText(dorsal.adminEmail).waitFor();
    expect(await page.getByRole("table", { name: "Usuarios" }).isVisible()).toBe(false);
    await cards.getByRole("button", { name: "Editar Administrador" }).waitFor();
    await page.screenshot({ path: "/tmp/users-phone.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("shows an athlete's account as 'Deportista' and saves it without changing its role", async () => {
    const athlete = { name: "Ana Gómez", email: "ana.gomez@example.co", password: "secreto-atleta" };
    expect((await apiClient(dorsal.url).post("/api/auth/athlete-register", athlete)).status).toBe(201);
    const page = await browser.openPage(desktop);
    await openUserManagement(page);
    await rowOf(page, athlete.email).getByText("Deportista", { exact: true }).waitFor();
    await rowOf(page, athlete.email)
      .getByRole("button", { name: `Editar ${athlete.name}` })
      .click();
    const dialog = page.getByRole("dialog", { name: "Editar usuario" });
    // Before: the role list had no athlete, so the dialog showed 'Admin' and could not save.
    expect(await dialog.getByLabel("Rol").inputValue()).toBe("athlete");
    await dialog.getByLabel("Nombre Completo").fill("Ana Gómez Ruiz");
    await dialog.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByText("Usuario actualizado", { exact: true }).waitFor();
    const saved = (await admin.get<UserListPage>("/api/users")).body.users.find((user) => user.email === athlete.email);
    expect(saved).toMatchObject({ name: "Ana Gómez Ruiz", role: "athlete" });
    expect(pageErrors).toEqual([]);
  });
});
