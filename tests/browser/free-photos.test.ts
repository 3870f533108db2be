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
    await page.getByRole("button", { name: "Dorsal 77 con 2 fotos" }).click();
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

  it("previews the bib's photos one after another, with only a free download", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/free-photos`);
    await page.getByRole("button", { name: "Ver dorsales de Carrera Recreativa de Cali" }).click();
    await page.getByRole("button", { name: "Dorsal 77 con 2 fotos" }).click();
    await page
      .getByRole("button", { name: /^Ver foto / })
      .first()
      .click();
    const preview = page.getByRole("dialog", { name: "Vista previa" });
    await preview.getByText("Foto 1 de 2").waitFor();
    await page.keyboard.press("ArrowRight");
    await preview.getByText("Foto 2 de 2").waitFor();
    expect(await preview.getByRole("button", { name: "Foto siguiente" }).isDisabled()).toBe(true);
    expect(await preview.getByRole("button", { name: /carrito|Comprar/ }).count()).toBe(0);

    const saved = page.waitForEvent("download");
    await preview.getByRole("button", { name: "Descargar gratis" }).click();
    expect((await saved).suggestedFilename()).toMatch(/^bib-77-[01]\.jpg$/);
    await preview.getByRole("button", { name: "Descargada" }).waitFor();
  });

  it("suggests the event's bibs when a bib has no free photos", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/free-photos`);
    await page.getByRole("button", { name: "Ver dorsales de Carrera Recreativa de Cali" }).click();
    await page.getByRole("button", { name: "Dorsal 77 con 2 fotos" }).waitFor();
    await page.goto(`${page.url()}&dorsal=4040`);
    await page.getByText("Sin resultados").waitFor();
    await page.getByText("Las fotos de este evento son gratis").waitFor();
    await page.getByRole("button", { name: "Ver los dorsales con fotos" }).click();
    await page.getByRole("button", { name: "Dorsal 77 con 2 fotos" }).waitFor();
  });
});
