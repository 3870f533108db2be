import type { CreateSaleResponse, EventDto, EventSalesSummary } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient, waitFor } from "../support/api";
import {
  animationsDone,
  createBrowserHarness,
  focusedInput,
  type SignedInTab,
  signedInTab,
  viewports,
} from "../support/browser";
import { chooseOnSandbox } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 5 through the events screen: an organizer creates an event, frees and protects its photos,
 * and deletes it with the admin password — a wrong password is refused and the event stays.
 * Issue 17: freeing or protecting photos first says what it means, with the event's paid sales.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let neighbour: EventDto;
let selling: EventDto;

/** What the focus checks read in the page (the test programs are typed without the DOM library). */
declare const document: { activeElement: { textContent: string | null } | null };

/** The desktop size, for the screenshots a person looks at. */
const wide = { width: 1366, height: 900 };

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  const token = await adminToken(dorsal);
  admin = apiClient(dorsal.url, token);
  neighbour = (await admin.post<EventDto>("/api/events", { name: "Vuelta a Boyacá", date: "2026-05-10" })).body;
  // An event that already sold a photo, paid through the payment sandbox as a buyer would.
  const seeded = await seedEventWithBibPhotos(dorsal, token, { name: "Gran Fondo de Medellín", bibs: ["318"] });
  selling = seeded.event;
  const sale = await apiClient(dorsal.url).post<CreateSaleResponse>("/api/sales/create", {
    eventId: selling.id,
    photoIds: seeded.photoIdsByBib.get("318"),
    customerName: "Ana Gómez",
    customerEmail: "ana@example.co",
  });
  expect(sale.status).toBe(201);
  expect((await chooseOnSandbox(dorsal.url, new URL(sale.body.paymentUrl), "APPROVED")).status).toBe(302);
  await waitFor(
    async () => {
      const summary = await admin.get<EventSalesSummary>(`/api/events/${selling.id}/sales-summary`);
      return summary.body.paidSales === 1 ? true : undefined;
    },
    30_000,
    "the sale to be paid",
  );
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const eventsNow = async () => (await admin.get<EventDto[]>("/api/events")).body;
/** An event's row in the list of events (a deleted one's row under 'Eliminaciones' bears its name too). */
const row = (page: Page, name: string) =>
  page.getByRole("region", { name: "Eventos", exact: true }).getByRole("listitem").filter({ hasText: name });

async function openEventsScreen(viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.openPage(viewport, { storageState: adminTab });
  await page.goto(`${dorsal.url}/events`);
  await page.getByRole("heading", { name: "Gestión de Eventos", level: 1 }).waitFor();
  return page;
}

describe("events screen", () => {
  it("creates an event, frees and protects its photos, and deletes it only with the right password", async () => {
    const page = await openEventsScreen(wide);

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

    // Freeing asks first; an event without sales says so.
    await created.getByRole("button", { name: `Liberar Fotos Gratis de ${name}` }).click();
    const free = page.getByRole("alertdialog", { name: `¿Liberar gratis las fotos de ${name}?` });
    await free.getByText("Este evento no tiene ventas.").waitFor();
    await free.getByRole("button", { name: "Liberar fotos" }).click();
    await free.waitFor({ state: "detached" });
    await created.getByText("Fotos gratis", { exact: true }).waitFor();
    await created.getByRole("button", { name: `Proteger Fotos de ${name}` }).waitFor();
    expect((await eventsNow()).find((candidate) => candidate.id === event.id)?.freePhotosEnabled).toBe(true);

    await created.getByRole("button", { name: `Proteger Fotos de ${name}` }).click();
    const protect = page.getByRole("alertdialog", { name: `¿Proteger las fotos de ${name}?` });
    await protect.getByText("vuelven a mostrarse con marca de agua").waitFor();
    await protect.getByRole("button", { name: "Proteger fotos" }).click();
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
    await page.getByText("Eliminando evento", { exact: true }).waitFor();
    await dialog.waitFor({ state: "detached" });
    await created.waitFor({ state: "detached" });
    expect((await admin.get(`/api/events/${event.id}`)).status).toBe(404);
    // The rest goes in the background: the screen follows it to its end and says what went.
    const deletions = page.getByRole("region", { name: "Eliminaciones" });
    const deletion = deletions.getByRole("listitem").filter({ hasText: event.name });
    await deletion.getByText("Eliminado", { exact: true }).waitFor({ timeout: 30_000 });
    await deletion.getByText(/^Se eliminaron \d+ fotos?, \d+ dorsal(es)? y \d+ archivos?/).waitFor();
    await page.screenshot({ path: "/tmp/events-desktop-deleted.png", fullPage: true });
    await row(page, neighbour.name).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("frees an event that sold photos only once the organizer has read what it means, by keyboard", async () => {
    const page = await openEventsScreen(wide);
    const sold = row(page, selling.name);
    const freeButton = sold.getByRole("button", { name: `Liberar Fotos Gratis de ${selling.name}` });
    await freeButton.click();
    const dialog = page.getByRole("alertdialog", { name: `¿Liberar gratis las fotos de ${selling.name}?` });
    await dialog.getByText("Este evento ya tiene 1 venta pagada ($ 15.000 COP)").waitFor();
    await dialog.getByText("con la marca GRATIS/DEMO").waitFor();
    await dialog.getByText("no se venden fotos de este evento ni se generan códigos").waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/events-desktop-free-confirm.png" });

    // Escape, like 'Cancelar', leaves the event paid.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect((await admin.get<EventDto>(`/api/events/${selling.id}`)).body.freePhotosEnabled).toBe(false);

    // Keyboard only: the dialog opens on 'Cancelar', Tab reaches the confirmation, Enter confirms.
    await freeButton.focus();
    await page.keyboard.press("Enter");
    await dialog.getByText("Este evento ya tiene 1 venta pagada").waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === "Cancelar");
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => document.activeElement?.textContent === "Liberar fotos");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await sold.getByText("Fotos gratis", { exact: true }).waitFor();
    expect((await admin.get<EventDto>(`/api/events/${selling.id}`)).body.freePhotosEnabled).toBe(true);
    await page.screenshot({ path: "/tmp/events-desktop.png", fullPage: true });

    await sold.getByRole("button", { name: `Proteger Fotos de ${selling.name}` }).click();
    const protect = page.getByRole("alertdialog", { name: `¿Proteger las fotos de ${selling.name}?` });
    await protect.getByRole("button", { name: "Proteger fotos" }).click();
    await freeButton.waitFor();
    expect((await admin.get<EventDto>(`/api/events/${selling.id}`)).body.freePhotosEnabled).toBe(false);

    // The summary is the admin's alone.
    expect((await apiClient(dorsal.url).get(`/api/events/${selling.id}/sales-summary`)).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });

  it("fits a phone, and Escape closes the delete dialog without deleting", async () => {
    const page = await openEventsScreen(viewports.phone);
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
    await page.screenshot({ path: "/tmp/events-phone.png", fullPage: true });

    await row(page, selling.name)
      .getByRole("button", { name: `Liberar Fotos Gratis de ${selling.name}` })
      .click();
    const free = page.getByRole("alertdialog", { name: `¿Liberar gratis las fotos de ${selling.name}?` });
    await free.getByText("Este evento ya tiene 1 venta pagada").waitFor();
    await animationsDone(page);
    const freeBox = await free.boundingBox();
    expect(freeBox && freeBox.x >= 0 && freeBox.x + freeBox.width <= viewports.phone.width).toBe(true);
    await page.screenshot({ path: "/tmp/events-phone-free-confirm.png" });
    await free.getByRole("button", { name: "Cancelar" }).click();
    await free.waitFor({ state: "detached" });
    expect((await admin.get<EventDto>(`/api/events/${selling.id}`)).body.freePhotosEnabled).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
