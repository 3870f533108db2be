import { readFile } from "node:fs/promises";
import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, type SignedInTab, signedInTab, signInAsAdmin, viewports } from "../support/browser";
import { pdfLines } from "../support/pdf";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * 'Estadísticas y Análisis' on screen: the figures of real photos for all events and for one, the
 * range buttons, the top bibs and the per-event comparison, on a desktop and on a phone; and the
 * PDF report of what is on screen, downloaded.
 */
let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
let rosas: EventDto;
let montana: EventDto;

const { desktop, phone } = viewports;

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  const token = await adminToken(dorsal);
  rosas = (await seedEventWithBibPhotos(dorsal, token, { name: "Carrera de las Rosas", bibs: ["5173", "5173", "42"] }))
    .event;
  montana = (await seedEventWithBibPhotos(dorsal, token, { name: "Trail de Montaña", bibs: ["7001"] })).event;
});
afterEach(async () => {
  await browser.closePage();
});
afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const kpi = (page: Page, label: string) => page.getByTestId("stat-card").filter({ hasText: label });

describe("analytics screen", () => {
  it("shows every event's figures, narrows them by range and by event", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    await page.getByRole("link", { name: "Estadísticas" }).click();
    await page.getByRole("heading", { name: "Estadísticas y Análisis", level: 1 }).waitFor();

    await kpi(page, "Fotos totales").getByText("4 procesadas").waitFor();
    expect(await kpi(page, "Fotos totales").textContent()).toContain("4");
    await kpi(page, "Dorsales detectados").getByText("3 dorsales únicos").waitFor();
    await kpi(page, "Velocidad de procesamiento").getByText("4 procesadas en las últimas 24 horas").waitFor();
    await kpi(page, "Ventas").getByText("0 ventas en las últimas 24 horas").waitFor();

    const top = page.getByRole("region", { name: "Dorsales con más fotos" }).getByRole("listitem");
    expect(await top.allTextContents()).toEqual([
      "1.#5173Carrera de las Rosas2 fotos",
      "2.#42Carrera de las Rosas1 foto",
      "3.#7001Trail de Montaña1 foto",
    ]);
    const processing = page.getByRole("region", { name: "Estado del procesamiento" });
    await processing.getByText("4 · 100%").waitFor();
    const recognition = page.getByRole("region", { name: "Reconocimiento de dorsales" });
    await recognition.getByText("100%").waitFor();
    // Issue 17: no technical words for the organizer (the runtime and the engine belong on the ops screens).
    const system = page.getByRole("region", { name: "Información del sistema" });
    await system.getByText("Última foto procesada").waitFor();
    const pageText = (await page.getByRole("main").textContent()) ?? "";
    for (const technical of ["npm start", "Entorno", "PaddleOCR", "Rekognition", "OCR"]) {
      expect(pageText).not.toContain(technical);
    }
    const rows = page.getByRole("table", { name: "Comparación por evento" }).getByRole("row");
    expect(await rows.allTextContents()).toEqual([
      "EventoFotosProcesadasDorsales únicosVentasIngresos",
      `${montana.name}1110$ 0 COP`,
      `${rosas.name}3320$ 0 COP`,
    ]);
    await page.screenshot({ path: "/tmp/analytics-desktop.png", fullPage: true });

    const week = page.getByRole("button", { name: "7 días" });
    await week.click();
    expect(await week.getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByRole("button", { name: "24h" }).getAttribute("aria-pressed")).toBe("false");
    await kpi(page, "Velocidad de procesamiento").getByText("4 procesadas en los últimos 7 días").waitFor();

    await page.getByLabel("Evento", { exact: true }).selectOption(String(montana.id));
    await kpi(page, "Fotos totales").getByText("1 procesada", { exact: true }).waitFor();
    await kpi(page, "Dorsales detectados").getByText("1 dorsal único").waitFor();
    expect(await top.allTextContents()).toEqual(["1.#70011 foto"]);
    expect(await page.getByRole("region", { name: "Comparación por evento" }).count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  });

  it("fits a phone: cards stacked, the comparison scrolls inside its own box", async () => {
    const page = await browser.openPage(phone, { storageState: adminTab });
    await page.goto(`${dorsal.url}/analytics`);
    await kpi(page, "Fotos totales").getByText("4 procesadas").waitFor();
    await page.getByRole("table", { name: "Comparación por evento" }).waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/analytics-phone.png", fullPage: true });
    expect(browser.pageErrors).toEqual([]);
  });
});

describe("analytics PDF report", () => {
  const wide = { width: 1366, height: 800 };

  /** Clicks the button and answers the downloaded file's name and its text, line by line. */
  async function downloadReport(page: Page) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Descargar informe (PDF)" }).click(),
    ]);
    const path = await download.path();
    return { filename: download.suggestedFilename(), lines: await pdfLines(new Uint8Array(await readFile(path))) };
  }

  it("downloads the report of the event and range on screen, on a wide screen", async () => {
    const page = await browser.openPage(wide, { acceptDownloads: true, storageState: adminTab });
    await page.goto(`${dorsal.url}/analytics`);
    await page.getByLabel("Evento", { exact: true }).selectOption(String(montana.id));
    await page.getByRole("button", { name: "7 días" }).click();
    await kpi(page, "Velocidad de procesamiento").getByText("1 procesada en los últimos 7 días").waitFor();
    await page.screenshot({ path: "/tmp/analytics-pdf-1366.png", fullPage: true });

    const { filename, lines } = await downloadReport(page);
    expect(filename).toMatch(/^estadisticas-trail-de-montana-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(lines).toContain("Evento: Trail de Montaña");
    expect(lines.some((line) => line.startsWith("Periodo: Últimos 7 días, del "))).toBe(true);
    // What the cards say, the report says.
    for (const text of ["Fotos totales", "1 procesada", "1 dorsal único", "1 procesada en los últimos 7 días"]) {
      expect(lines).toContain(text);
    }
    expect(lines).toContain("$ 0 COP");
    expect(lines).toContain("1. #7001 1 foto");
    await page.getByRole("button", { name: "Descargar informe (PDF)" }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it("fits the button on a phone and downloads every event's report from there", async () => {
    const page = await browser.openPage(phone, { acceptDownloads: true, storageState: adminTab });
    await page.goto(`${dorsal.url}/analytics`);
    await kpi(page, "Fotos totales").getByText("4 procesadas").waitFor();
    const button = page.getByRole("button", { name: "Descargar informe (PDF)" });
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= phone.width).toBe(true);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/analytics-pdf-390.png", fullPage: true });

    const { filename, lines } = await downloadReport(page);
    expect(filename).toMatch(/^estadisticas-todos-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(lines).toContain("Evento: Todos los eventos");
    expect(lines.some((line) => line.startsWith("Periodo: Últimas 24 horas, del "))).toBe(true);
    expect(lines).toContain("4 procesadas en las últimas 24 horas");
    expect(lines).toContain(`${rosas.name} 3 3 2 0 $ 0 COP`);
    expect(browser.pageErrors).toEqual([]);
  });

  it("says in Spanish why a report could not be made", async () => {
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const doomed = (await admin.post<EventDto>("/api/events", { name: "Carrera Fugaz", date: "2026-12-20" })).body;
    const page = await browser.openPage(wide, { acceptDownloads: true, storageState: adminTab });
    await page.goto(`${dorsal.url}/analytics`);
    await page.getByLabel("Evento", { exact: true }).selectOption(String(doomed.id));
    await kpi(page, "Fotos totales").getByText("0 procesadas").waitFor();
    // Gone between the screen's last reading and the click.
    const removed = await admin.request("DELETE", `/api/events/${doomed.id}`, { adminPassword: dorsal.adminPassword });
    expect(removed.status).toBe(202);

    await page.getByRole("button", { name: "Descargar informe (PDF)" }).click();
    await page.getByText("No se pudo descargar el informe").waitFor();
    await page.getByText("Evento no encontrado").first().waitFor();
    expect(await page.getByRole("button", { name: "Descargar informe (PDF)" }).isEnabled()).toBe(true);
  });
});
