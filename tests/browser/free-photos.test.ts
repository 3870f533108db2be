import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken } from "../support/api";
import { createBrowserHarness, viewports } from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/** /free-photos: a free event, its bibs, and the GRATIS/DEMO copies downloaded one after another. */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
  await seedEventWithBibPhotos(dorsal, await adminToken(dorsal), {
    name: "Carrera Recreativa de Cali",
    bibs: ["77", "77"],
    freePhotos: true,
  });
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

describe("free photos", () => {
  it("downloads a free event's photos of a bib", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/free-photos`);
    await page.getByRole("button", { name: "Ver dorsales de Carrera Recreativa de Cali" }).click();
    await page.getByRole("button", { name: "Dorsal 77, 2 fotos" }).click();
    await page.getByRole("heading", { name: "2 fotos gratis del dorsal 77" }).waitFor();

    const saved: string[] = [];
    page.on("download", (download) => saved.push(download.suggestedFilename()));
    await page.getByRole("button", { name: "Descargar todas" }).click();
    await expect.poll(() => saved.length, { timeout: 15_000 }).toBe(2);
    expect(saved.sort()).toEqual(["bib-77-0.jpg", "bib-77-1.jpg"]);
    await expect
      .poll(() => page.getByRole("button", { name: /Descargar bib-77/ }).allTextContents())
      .toEqual(["Descargada", "Descargada"]);
  });
});
