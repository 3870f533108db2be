import { readFile } from "node:fs/promises";
import type { EventDto, IssuedDownloadCode } from "@dorsal/shared";
import type { Download, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient } from "../support/api";
import {
  animationsDone,
  createBrowserHarness,
  imagesLoaded,
  type SignedInTab,
  signedInTab,
  viewports,
} from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";
import { readZip } from "../support/zip";

/**
 * Issue 6, paying outside the gateway: the organizer issues a download code on
 * /admin-download-codes and copies the chat message; the athlete redeems it on /search, where the
 * dialog opens the bib's originals (one ZIP or one by one) until the code's limit is reached.
 * Issue 17: a bib without photos is only given a code once the organizer confirms, and the
 * organizer's table counts and words downloads exactly as the athlete's dialog does.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let event: EventDto;
let freeEvent: EventDto;
let code: string;
let admin: ReturnType<typeof apiClient>;

const bib = "5173";
/** The desktop size, for the screenshots a person looks at. */
const wide = { width: 1366, height: 900 };

/** The organizer's listing of a code: what its table shows. */
const listed = async (wanted: string) => {
  const codes = await admin.get<IssuedDownloadCode[]>(`/api/admin/download-codes?eventId=${event.id}`);
  return codes.body.find((issued) => issued.code === wanted);
};

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  const token = await adminToken(dorsal);
  ({ event } = await seedEventWithBibPhotos(dorsal, token, { name: "Maratón de Medellín", bibs: [bib, bib, "42"] }));
  admin = apiClient(dorsal.url, token);
  freeEvent = (await admin.post<EventDto>("/api/events", { name: "Carrera Recreativa", date: "2026-12-06" })).body;
  await admin.post(`/api/events/${freeEvent.id}/enable-free-photos`);
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

describe("download code generator", () => {
  it("issues a code for a bib and copies the message for the customer", async () => {
    const page = await browser.openPage(wide, { storageState: adminTab });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dorsal.url });
    await page.goto(`${dorsal.url}/admin-download-codes`);
    await page.getByRole("heading", { name: "Generar Códigos de Descarga" }).waitFor();
    await page.getByText("Envía el comprobante y su número de dorsal por chat").waitFor();

    // Only active events that still sell their photos can get a code.
    const eventSelect = page.getByLabel("Evento", { exact: true });
    expect(await eventSelect.inputValue()).toBe(String(event.id));
    const offered = await eventSelect.locator("option").allTextContents();
    expect(offered.some((option) => option.includes(freeEvent.name))).toBe(false);
    await page.getByText("No hay códigos para este evento").waitFor();

    await page.getByRole("button", { name: "Generar código" }).click();
    await page.getByText("Campos requeridos").waitFor();

    const dorsalField = page.getByLabel("Número de dorsal");
    await dorsalField.fill(bib);
    expect(await page.getByLabel("Validez").inputValue()).toBe("30");
    await page.getByLabel("Descargas máximas").selectOption("3");
    const email = page.getByLabel("Correo del cliente (opcional)");
    await email.fill("sin-arroba");
    await page.getByRole("button", { name: "Generar código" }).click();
    await page.getByText("El correo debe contener el símbolo @").waitFor();
    await email.fill("pago.nequi@example.co");
    await page.getByRole("button", { name: "Generar código" }).click();
    await page.getByText("Código generado exitosamente").waitFor();

    const result = page.getByTestId("code-result");
    // The same message went by email ('Correos enviados' lists it).
    await result.getByTestId("code-mail").getByText("Mensaje enviado por correo a pago.nequi@example.co.").waitFor();
    expect(await email.inputValue()).toBe("");
    code = (await result.getByTestId("generated-code").textContent()) ?? "";
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    await result.getByText(event.name, { exact: true }).waitFor();
    expect(await dorsalField.inputValue()).toBe("");

    await result.getByRole("button", { name: "Copiar mensaje" }).click();
    await result.getByRole("button", { name: "Mensaje copiado" }).waitFor();
    const copied = String(await page.evaluate("navigator.clipboard.readText()"));
    expect(copied).toContain(code);
    expect(copied).toContain(`Dorsal: ${bib}`);
    expect(copied).toMatch(/Válido hasta: \d{1,2} de \w+ de \d{4}/);
    expect(copied).toContain("Descargas permitidas por foto: 3");
    // Spec §9: the indicator goes back after 3 s.
    await result.getByRole("button", { name: "Copiar mensaje" }).waitFor({ timeout: 5000 });

    const row = page.getByTestId("issued-code-row").filter({ hasText: code });
    await row.getByText("3 de 3 descargas restantes por foto").waitFor();
    await row.getByText("Vigente").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("warns before issuing a code for a bib without photos, and issues it only when confirmed", async () => {
    const page = await browser.openPage(wide, { storageState: adminTab });
    await page.goto(`${dorsal.url}/admin-download-codes`);
    const dorsalField = page.getByLabel("Número de dorsal");
    await dorsalField.fill("999");
    await page.getByRole("button", { name: "Generar código" }).click();
    const warning = page.getByRole("alert").filter({ hasText: "El dorsal 999 no tiene fotos en este evento" });
    await warning.waitFor();
    await page.screenshot({ path: "/tmp/codes-desktop-no-photos.png", fullPage: true });
    expect(await page.getByTestId("code-result").count()).toBe(0);
    // Another bib, or 'No generar', leaves nothing issued; the dorsal typed stays.
    await warning.getByRole("button", { name: "No generar" }).click();
    await warning.waitFor({ state: "detached" });
    expect(await dorsalField.inputValue()).toBe("999");
    const codesFor999 = async () =>
      (await admin.get<IssuedDownloadCode[]>(`/api/admin/download-codes?eventId=${event.id}`)).body.filter(
        (issued) => issued.dorsalNumber === "999",
      );
    expect(await codesFor999()).toEqual([]);

    await page.getByRole("button", { name: "Generar código" }).click();
    await warning.getByRole("button", { name: "Generar de todos modos" }).click();
    await page.getByText("Código generado exitosamente").waitFor();
    const issued = (await page.getByTestId("generated-code").textContent()) ?? "";
    const row = page.getByTestId("issued-code-row").filter({ hasText: issued });
    await row.getByText("5 de 5 descargas restantes por foto").waitFor();
    await row.getByText("Sin fotos todavía").waitFor();
    expect((await codesFor999()).map((found) => found.code)).toEqual([issued]);

    // The server is the one that asks: without the confirmation it refuses, with it it issues.
    const request = { eventId: event.id, dorsalNumber: "998", expiresInDays: 7, maxDownloads: 3 };
    const refused = await admin.post<{ error: string }>("/api/admin/generate-download-code", request);
    expect(refused).toMatchObject({ status: 409, body: { error: "El dorsal 998 no tiene fotos en este evento" } });
    const confirmed = await admin.post("/api/admin/generate-download-code", { ...request, allowWithoutPhotos: true });
    expect(confirmed.status).toBe(201);
    const withPhotos = await admin.post("/api/admin/generate-download-code", { ...request, dorsalNumber: "42" });
    expect(withPhotos.status).toBe(201);
    expect(pageErrors).toEqual([]);
  });
});

/** Opens the bib's photos on /search and the code dialog from there, as an athlete does. */
async function openCodeDialog(page: Page) {
  await page.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=${bib}`);
  await page.getByRole("button", { name: "Tengo un código de descarga" }).click();
  const dialog = page.getByRole("dialog", { name: "Descargar con código" });
  await dialog.getByLabel("Código de descarga").waitFor();
  return dialog;
}

describe("code dialog", () => {
  it("opens the bib's originals with the code and stays open: one ZIP, single photos, until its limit", async () => {
    const page = await browser.openPage(viewports.phone);
    const dialog = await openCodeDialog(page);

    await dialog.getByRole("button", { name: "Ver mis fotos" }).click();
    await dialog.getByText("Por favor ingresa un código de descarga").waitFor();
    await dialog.getByLabel("Código de descarga").fill("NO-EXISTE");
    await dialog.getByRole("button", { name: "Ver mis fotos" }).click();
    await dialog.locator("[data-part=error-text]").waitFor();

    const started: Download[] = [];
    page.on("download", (download) => started.push(download));
    // Typed as a customer might: lowercase and padded; the dialog trims and uppercases it.
    await dialog.getByLabel("Código de descarga").fill(`  ${code.toLowerCase()} `);
    await dialog.getByRole("button", { name: "Ver mis fotos" }).click();
    await dialog.getByText("Código válido").waitFor();
    const remaining = dialog.getByTestId("code-remaining");
    await expect.poll(() => remaining.textContent()).toBe("3 de 3 descargas restantes por foto");
    await dialog.getByText("Con este código, cada foto se puede descargar 3 veces.", { exact: false }).waitFor();
    expect(await dialog.getByRole("list", { name: "Fotos del código" }).getByRole("listitem").count()).toBe(2);
    await animationsDone(page);
    await imagesLoaded(page, "[role=dialog] img");
    await page.screenshot({ path: "/tmp/pay-codigo-390.png" });
    await page.setViewportSize({ width: 1366, height: 900 });
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/pay-codigo-1366.png" });
    await page.setViewportSize(viewports.phone);

    // Nothing downloads until asked; then one ZIP holds both originals.
    const zipAll = dialog.getByRole("button", { name: "Descargar todas (ZIP)" });
    const [zip] = await Promise.all([page.waitForEvent("download"), zipAll.click()]);
    const files = await readZip(await readFile(await zip.path()));
    expect([...files.keys()].sort()).toEqual(["bib-5173-0.jpg", "bib-5173-1.jpg"]);
    // The seed made bib 5173's photos first: 1200 and 1208 px wide.
    expect(files.get("bib-5173-0.jpg")?.equals(await makeBibPhoto(bib, { width: 1200, height: 900 }))).toBe(true);
    expect(files.get("bib-5173-1.jpg")?.equals(await makeBibPhoto(bib, { width: 1208, height: 900 }))).toBe(true);
    await expect.poll(() => remaining.textContent()).toBe("2 de 3 descargas restantes por foto");
    // The organizer's table counts the same: per photo, the most downloaded one sets what is left.
    await expect.poll(async () => (await listed(code))?.remainingDownloads).toBe(2);
    expect(started).toHaveLength(1);

    await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Descargar bib-5173-0.jpg" }).click(),
    ]);
    await expect.poll(() => remaining.textContent()).toBe("1 a 2 de 3 descargas restantes por foto");
    await expect
      .poll(async () => {
        const issued = await listed(code);
        return issued && [issued.remainingDownloads, issued.mostRemainingDownloads];
      })
      .toEqual([1, 2]);
    await Promise.all([page.waitForEvent("download"), zipAll.click()]);
    await expect.poll(() => remaining.textContent()).toBe("0 a 1 de 3 descargas restantes por foto");
    await Promise.all([page.waitForEvent("download"), zipAll.click()]);
    await expect.poll(() => remaining.textContent()).toBe("0 de 3 descargas restantes por foto");
    await dialog.getByText("Este código ya alcanzó su límite de descargas").waitFor();
    await expect(zipAll.isDisabled()).resolves.toBe(true);
    expect(started).toHaveLength(4);
    // Still open after every download: the athlete closes it.
    await dialog.getByRole("button", { name: "Listo" }).click();
    await dialog.waitFor({ state: "detached" });

    const spent = await openCodeDialog(page);
    await spent.getByLabel("Código de descarga").fill(code);
    await spent.getByRole("button", { name: "Ver mis fotos" }).click();
    await spent.locator("[data-part=error-text]").waitFor();
    expect(await spent.getByText("Código válido").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe("issued codes table", () => {
  it("tells the organizer what the athlete was told, on a phone too", async () => {
    const page = await browser.openPage(viewports.phone, { storageState: adminTab });
    await page.goto(`${dorsal.url}/admin-download-codes`);
    const row = page.getByTestId("issued-code-row").filter({ hasText: code });
    await row.getByText("0 de 3 descargas restantes por foto").waitFor();
    await row.getByText("Agotado").waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);
    await page.screenshot({ path: "/tmp/codes-phone.png", fullPage: true });

    await page.getByLabel("Número de dorsal").fill("997");
    await page.getByRole("button", { name: "Generar código" }).click();
    await page.getByRole("alert").filter({ hasText: "El dorsal 997 no tiene fotos en este evento" }).waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/codes-phone-no-photos.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
