import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken } from "../support/api";
import { createBrowserHarness, viewports } from "../support/browser";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 6's money path in a real browser: search a bib, choose photos, pay in the local Wompi
 * sandbox, come back to the download page and download the originals until the limit; a declined
 * payment grants nothing.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
let event: EventDto;

beforeAll(async () => {
  dorsal = await startDorsal();
  await browser.launch();
  ({ event } = await seedEventWithBibPhotos(dorsal, await adminToken(dorsal), {
    name: "Media Maratón de Bogotá",
    bibs: ["5173", "5173"],
  }));
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** From the search to the sandbox's checkout page, buying `count` photos of bib 5173. */
async function checkout(page: Page, count: number, customer: { name: string; email: string }) {
  await page.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=5173`);
  await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
  await page.getByRole("link", { name: "Comprar fotos" }).click();
  await page.getByRole("heading", { name: "Comprar fotos" }).waitFor();

  const choices = page.getByRole("checkbox", { name: /Agregar al carrito/ });
  await choices.first().waitFor();
  // Choosing a photo moves it from "Otras fotos" to the cart, so the first choice left is the next one.
  for (let i = 1; i <= count; i++) {
    await choices.first().click({ force: true });
    await expect.poll(() => page.getByRole("checkbox", { name: /Quitar del carrito/ }).count()).toBe(i);
  }
  await expect
    .poll(() => page.getByTestId("cart-total").textContent())
    .toBe(count === 1 ? "$ 15.000 COP" : "$ 30.000 COP");

  const pay = page.getByRole("button", { name: /^Pagar/ });
  await page.getByLabel("Nombre completo").fill("Ana");
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await pay.click();
  await page.getByText("Debe incluir nombre y apellido").waitFor();
  await page.getByLabel("Nombre completo").fill(customer.name);
  await pay.click();
  await page.waitForURL(/\/sandbox\/wompi\/p\//);
}

describe("athlete journey", () => {
  it("buys two photos in the sandbox with 'Aprobar' and downloads the originals until the limit", async () => {
    const page = await browser.openPage(viewports.phone);
    await checkout(page, 2, { name: "Ana Gómez", email: "ana@example.com" });
    await page.getByRole("button", { name: "Aprobar" }).click();

    await page.waitForURL(/\/download\?token=/);
    await page.getByRole("button", { name: "Descargar todas" }).waitFor();
    await expect.poll(() => page.getByTestId("remaining-downloads").textContent()).toBe("3 de 3 descargas restantes");

    // Three rounds of 'Descargar todas': each saves both originals, each counted once per photo.
    const originals = new Set<string>();
    for (let round = 1; round <= 3; round++) {
      const downloads: Promise<import("playwright-core").Download>[] = [];
      const onDownload = (download: import("playwright-core").Download) => downloads.push(Promise.resolve(download));
      page.on("download", onDownload);
      const button = page.getByRole("button", { name: "Descargar todas" });
      if (round > 1) {
        // After a batch every photo is 'Descargada': reload to start a new round, as a returning buyer would.
        await page.reload();
      }
      await button.click();
      await expect.poll(() => downloads.length, { timeout: 20_000 }).toBe(2);
      page.off("download", onDownload);
      for (const download of await Promise.all(downloads)) {
        const file = await download.path();
        originals.add(sha256(await readFile(file)));
      }
      await expect
        .poll(() => page.getByTestId("remaining-downloads").textContent(), { timeout: 10_000 })
        .toBe(`${3 - round} de 3 descargas restantes`);
    }
    expect(originals.size).toBe(2);
    await page.getByText("Has alcanzado el límite de descargas para esta compra.").waitFor();
    await expect(page.getByRole("button", { name: "Descargar todas" }).isDisabled()).resolves.toBe(true);
  });

  it("grants nothing when the payment is declined with 'Rechazar'", async () => {
    const page = await browser.openPage(viewports.desktop);
    await checkout(page, 1, { name: "Luis Pérez", email: "luis@example.com" });
    await page.getByRole("button", { name: "Rechazar" }).click();
    await page.waitForURL(/\/download\?token=/);
    await page.getByText("Pago no aprobado").waitFor();
    await page.getByText("El pago fue rechazado o anulado: esta compra no permite descargas.").waitFor();
    expect(await page.getByRole("button", { name: "Descargar todas" }).count()).toBe(0);
  });

  it("browses on a phone from the events to the bib grid to the bib's photos", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search`);
    await page.getByRole("button", { name: `Ver dorsales de ${event.name}` }).click();
    await page.getByRole("heading", { name: "1 dorsales con fotos" }).waitFor();
    await page.getByRole("button", { name: "Dorsal 5173, 2 fotos" }).click();
    await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
    expect(page.url()).toContain(`eventId=${event.id}`);
    expect(page.url()).toContain("dorsal=5173");
    await page.getByRole("button", { name: "Ver foto bib-5173-0.jpg" }).click();
    const preview = page.getByRole("dialog", { name: "Vista previa" });
    await preview.getByRole("img", { name: "Foto bib-5173-0.jpg" }).waitFor();
    await preview.getByRole("button", { name: "Cerrar" }).click();
    await page.goBack();
    await page.getByRole("heading", { name: "1 dorsales con fotos" }).waitFor();
  });

  it("explains a purchase screen reached without a bib", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/photo-purchase`);
    await page.getByText("No se ha especificado un número de dorsal válido.").waitFor();
  });
});
