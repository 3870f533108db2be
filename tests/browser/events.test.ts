import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, focusedInput, signInAsAdmin, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 5 through the events screen: an organizer creates an event, frees and protects its photos,
 * and deletes it with the admin password — a wrong password is refused and the event stays.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let neighbour: EventDto;

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
  admin = apiClient(dorsal.url, await adminToken(dorsal));
  neighbour = (await admin.post<EventDto>("/api/events", { name: "Vuelta a Boyacá", date: "2026-05-10" })).body;
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const eventsNow = async () => (await admin.get<EventDto[]>("/api/events")).body;
const row = (page: Page, name: string) => page.getByRole("listitem").filter({ hasText: name });

async function openEventsScreen(page: Page) {
  await signInAsAdmin(page, dorsal);
  await page.goto(`${dorsal.url}/events`);
  await page.getByRole("heading", { name: "Gestión de Eventos" }).waitFor();
}

describe("events screen", () => {
  it("creates an event, frees and protects its photos, and deletes it only with the right password", async () => {
    const page = await browser.openPage(viewports.desktop);
    await openEventsScreen(page);

    const name = "Carrera Nocturna de Cali";
    await page.getByLabel("Nombre del evento").fill(name);
    await page.getByLabel("Fecha").fill("2026-10-04");
    await page.getByLabel("Ubicación").fill("Cali");
    await page.getByRole("button", { name: "Crear Evento" }).click();
    const created = row(page, name);
    await created.getByText("Activo").waitFor();
    const event = (await eventsNow()).find((candidate) => candidate.name === name);
    if (!event) throw new Error("the event was not created");
    expect(event.freePhotosEnabled).toBe(false);

    await created.getByRole("button", { name: `Liberar Fotos Gratis de ${name}` }).click();
    await created.getByText("Fotos gratis", { exact: true }).waitFor();
    await created.getByRole("button", { name: `Proteger Fotos de ${name}` }).waitFor();
    expect((await eventsNow()).find((candidate) => candidate.id === event.id)?.freePhotosEnabled).toBe(true);

    await created.getByRole("button", { name: `Proteger Fotos de ${name}` }).click();
    await created.getByRole("button", { name: `Liberar Fotos Gratis de ${name}` }).waitFor();
    expect(await created.getByText("Fotos gratis", { exact: true }).count()).toBe(0);
    expect((await eventsNow()).find((candidate) => candidate.id === event.id)?.freePhotosEnabled).toBe(false);

    // The dialog opens on the password field, and an empty one is refused before any request.
    await created.getByRole("button", { name: `Eliminar evento ${name}` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Eliminar evento" });
    const password = dialog.getByLabel("Contraseña de administrador");
    await password.waitFor();
    await focusedInput(page, "password");
    await dialog.getByRole("button", { name: "Eliminar evento" }).click();
    await dialog.getByText("Ingresa la contraseña de administrador para confirmar la eliminación").waitFor();

    await password.fill("no-es-la-clave");
    await dialog.getByRole("button", { name: "Eliminar evento" }).click();
    await dialog.getByText("No se pudo eliminar el evento. Verifica la contraseña de administrador").waitFor();
    await page.getByText("Error al eliminar evento").waitFor();
    expect((await admin.get(`/api/events/${event.id}`)).status).toBe(200);
    // Still signed in: a wrong confirmation is not a lost session.
    expect(await page.evaluate("window.localStorage.getItem('race_photo_user')")).not.toBeNull();

    // Keyboard only: type the right password and confirm with Enter.
    await password.fill(dorsal.adminPassword);
    await password.press("Enter");
    await page.getByText("Evento eliminado").waitFor();
    await dialog.waitFor({ state: "detached" });
    await created.waitFor({ state: "detached" });
    expect((await admin.get(`/api/events/${event.id}`)).status).toBe(404);
    await row(page, neighbour.name).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("fits a phone, and Escape closes the delete dialog without deleting", async () => {
    const page = await browser.openPage(viewports.phone);
    await openEventsScreen(page);
    const neighbourRow = row(page, neighbour.name);
    await neighbourRow.getByRole("button", { name: `Liberar Fotos Gratis de ${neighbour.name}` }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);

    await neighbourRow.getByRole("button", { name: `Eliminar evento ${neighbour.name}` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Eliminar evento" });
    await dialog.getByLabel("Contraseña de administrador").waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= viewports.phone.width).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect((await admin.get(`/api/events/${neighbour.id}`)).status).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
