import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, signInAsAdmin, viewports } from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 6, paying outside the gateway: the organizer issues a download code on
 * /admin-download-codes and copies the chat message; the athlete redeems it on /search, which
 * downloads the bib's originals until the code's limit is reached.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let event: EventDto;
let freeEvent: EventDto;
let code: string;

const bib = "5173";

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
  const token = await adminToken(dorsal);
  ({ event } = await seedEventWithBibPhotos(dorsal, token, { name: "Maratón de Medellín", bibs: [bib, bib, "42"] }));
  const admin = apiClient(dorsal.url, token);
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
    const page = await browser.openPage(viewports.desktop);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dorsal.url });
    await signInAsAdmin(page, dorsal);
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
    await page.getByRole("button", { name: "Generar código" }).click();
    await page.getByText("Código generado exitosamente").waitFor();

    const result = page.getByTestId("code-result");
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
    expect(copied).toContain("Descargas permitidas: 3");
    // Spec §9: the indicator goes back after 3 s.
    await result.getByRole("button", { name: "Copiar mensaje" }).waitFor({ timeout: 5000 });

    const row = page.getByTestId("issued-code-row").filter({ hasText: code });
    await row.getByText("0 descargas · máx. 3 por foto").waitFor();
    await row.getByText("Vigente").waitFor();
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
  it("downloads the bib's originals with the code, until its limit", async () => {
    const page = await browser.openPage(viewports.phone);
    const dialog = await openCodeDialog(page);

    await dialog.getByRole("button", { name: "Descargar" }).click();
    await dialog.getByText("Por favor ingresa un código de descarga").waitFor();
    await dialog.getByLabel("Código de descarga").fill("NO-EXISTE");
    await dialog.getByRole("button", { name: "Descargar" }).click();
    await dialog.locator("[data-part=error-text]").waitFor();

    for (let round = 1; round <= 3; round += 1) {
      const current = round === 1 ? dialog : await openCodeDialog(page);
      const downloads: string[] = [];
      const onDownload = (download: { suggestedFilename(): string }) => downloads.push(download.suggestedFilename());
      page.on("download", onDownload);
      // Typed as a customer might: lowercase and padded; the dialog trims and uppercases it.
      await current.getByLabel("Código de descarga").fill(`  ${code.toLowerCase()} `);
      await current.getByRole("button", { name: "Descargar" }).click();
      await current.getByText("Código válido").waitFor();
      await current.getByText(`Descargas restantes con este código: ${3 - round}`).waitFor();
      // The dialog closes 2 s after the last photo is saved.
      await current.waitFor({ state: "detached", timeout: 15_000 });
      page.off("download", onDownload);
      expect(downloads).toHaveLength(2);
      expect(downloads.every((name) => name.endsWith(".jpg"))).toBe(true);
    }

    const spent = await openCodeDialog(page);
    await spent.getByLabel("Código de descarga").fill(code);
    await spent.getByRole("button", { name: "Descargar" }).click();
    await spent.locator("[data-part=error-text]").waitFor();
    expect(await spent.getByText("Código válido").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
