import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken } from "../support/api";
import { createBrowserHarness, signInAsAdmin, viewports } from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * 'Estadísticas y Análisis' on screen: the figures of real photos for all events and for one, the
 * range buttons, the top bibs and the per-event comparison, on a desktop and on a phone.
 */
let dorsal: RunningDorsal;
const browser = createBrowserHarness();
let rosas: EventDto;
let montana: EventDto;

const { desktop, phone } = viewports;

beforeAll(async () => {
  dorsal = await startDorsal();
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
    const page = await browser.openPage(phone);
    await signInAsAdmin(page, dorsal);
    await page.goto(`${dorsal.url}/analytics`);
    await kpi(page, "Fotos totales").getByText("4 procesadas").waitFor();
    await page.getByRole("table", { name: "Comparación por evento" }).waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/analytics-phone.png", fullPage: true });
    expect(browser.pageErrors).toEqual([]);
  });
});
