import { readFile } from "node:fs/promises";
import path from "node:path";
import type { EventDto, OutboxMessage, OutboxPage, PresignResponse, PublicUser } from "@dorsal/shared";
import type { Download, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WompiKeys } from "../../functions/src/adapters/payments/wompi";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { probePortraitJpeg } from "../../functions/src/preflight/probe-portrait";
import { accessibilityViolations } from "../support/accessibility";
import { adminToken, apiClient, waitFor } from "../support/api";
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
 * The athlete's money path in a real browser, on a 390×844 phone: find the bib's photos, look at
 * one, put them in the cart, pay in the local Wompi sandbox, read the confirmation (amount,
 * reference, the link to keep) and download every original as ONE ZIP, the downloads left
 * updating as they are spent. A declined payment says why and keeps the cart for a retry.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
let event: EventDto;

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
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

/** Both sizes of a screen, for a person to look at (the phone size is the one the test runs at). */
async function screenshots(page: Page, name: string) {
  await animationsDone(page);
  await imagesLoaded(page, "img");
  await page.screenshot({ path: `/tmp/pay-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await animationsDone(page);
  await page.screenshot({ path: `/tmp/pay-${name}-1366.png`, fullPage: true });
  await page.setViewportSize(viewports.phone);
}

/** Clicks and waits for the one download the click starts. */
async function downloadOf(page: Page, click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return download;
}

/**
 * From the bib's photos on /search to the sandbox's checkout page, buying `count` photos of bib 5173:
 * the photos go into the cart from the preview, as a phone user walks them.
 */
async function checkout(page: Page, count: number, customer: { name: string; email: string }) {
  await page.getByRole("button", { name: "Ver foto bib-5173-0.jpg" }).click();
  const preview = page.getByRole("dialog", { name: "Vista previa" });
  await preview.getByRole("img", { name: "Foto bib-5173-0.jpg" }).waitFor();
  for (let i = 1; i <= count; i++) {
    if (i > 1) await preview.getByRole("button", { name: "Foto siguiente" }).click();
    await preview.getByText(`Foto ${i} de 2`).waitFor();
    await preview.getByRole("button", { name: "Agregar al carrito" }).click();
    await preview.getByText(i === 1 ? "1 foto en el carrito" : `${i} fotos en el carrito`).waitFor();
  }
  await preview.getByRole("button", { name: "Cerrar" }).click();
  await page.getByRole("button", { name: "Comprar fotos" }).click();
  await page.getByRole("heading", { name: "Comprar fotos" }).waitFor();
  await expect
    .poll(() => page.getByTestId("cart-total").textContent())
    .toBe(count === 1 ? "$ 15.000 COP" : "$ 30.000 COP");

  const pay = page.getByRole("button", { name: /^Pagar/ });
  // Grey only with its reason beside it (issue 17: the button went grey without saying why).
  expect(await pay.isDisabled()).toBe(true);
  const reason = page.locator(`[id="${await pay.getAttribute("aria-describedby")}"]`);
  expect(await reason.textContent()).toBe("Escribe tu nombre y tu correo");
  await page.getByLabel("Nombre completo").fill("Ana");
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await pay.click();
  await page.getByText("Debe incluir nombre y apellido").waitFor();
  await page.getByLabel("Nombre completo").fill(customer.name);
  await pay.click();
  await page.waitForURL(/\/sandbox\/wompi\/p\//);
}

/** What the sandbox's API asks for, as Wompi's does: its private key (generated on first start). */
const sandboxPrivateKey = async () =>
  (JSON.parse(await readFile(path.join(dorsal.dataDir, "keys", "wompi-sandbox.json"), "utf8")) as WompiKeys).privateKey;

/** The seed made bib 5173's photos 1200 and 1208 px wide, named bib-5173-0.jpg and bib-5173-1.jpg. */
const originals = async () =>
  new Map([
    ["bib-5173-0.jpg", await makeBibPhoto("5173", { width: 1200, height: 900 })],
    ["bib-5173-1.jpg", await makeBibPhoto("5173", { width: 1208, height: 900 })],
  ]);

describe("athlete journey", () => {
  it("on a phone: search, preview, cart, pay, 'Pago aprobado', then every original in ONE ZIP", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dorsal.url });
    await page.goto(`${dorsal.url}/search`);
    await page.getByRole("button", { name: `Ver dorsales de ${event.name}` }).click();
    await page.getByRole("button", { name: "Dorsal 5173 con 2 fotos" }).click();
    await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
    await checkout(page, 2, { name: "Ana Gómez", email: "ana@example.com" });
    await page.getByRole("button", { name: "Aprobar" }).click();

    // The confirmation: approved, what was paid, the reference, and the link to keep.
    await page.waitForURL(/\/download\?token=/);
    const confirmation = page.getByTestId("payment-confirmation");
    await confirmation.getByText("Pago aprobado").waitFor();
    const summary = confirmation.getByTestId("payment-summary");
    await summary.getByText("$ 30.000 COP").waitFor();
    expect(await summary.textContent()).toMatch(/ReferenciaDOR-[0-9a-z]{29}/);
    await summary.getByText("2 fotos · Media Maratón de Bogotá · dorsal 5173").waitFor();
    await summary.getByText("Tarjeta").waitFor();
    const token = new URL(page.url()).searchParams.get("token") ?? "";
    await confirmation.getByRole("button", { name: "Copiar enlace" }).click();
    await confirmation.getByRole("button", { name: "Enlace copiado" }).waitFor();
    expect(String(await page.evaluate("navigator.clipboard.readText()"))).toBe(`${dorsal.url}/download?token=${token}`);
    const remaining = page.getByTestId("remaining-downloads");
    await expect.poll(() => remaining.textContent()).toBe("3 de 3 descargas restantes por foto");
    await page.getByText("Cada foto se puede descargar 3 veces.", { exact: false }).waitFor();
    await screenshots(page, "confirmacion");

    // 'Descargar todas (ZIP)': one download, a valid ZIP of both originals, byte for byte.
    const started: Download[] = [];
    page.on("download", (download) => started.push(download));
    const zipAll = page.getByRole("button", { name: "Descargar todas (ZIP)" });
    const zip = await downloadOf(page, () => zipAll.click());
    expect(zip.suggestedFilename()).toBe("fotos-media-maraton-de-bogota-dorsal-5173.zip");
    const files = await readZip(await readFile(await zip.path()));
    expect([...files.keys()].sort()).toEqual(["bib-5173-0.jpg", "bib-5173-1.jpg"]);
    for (const [name, bytes] of await originals()) expect(files.get(name)?.equals(bytes), name).toBe(true);
    // The count follows at once, without a reload: the ZIP took one download of each photo.
    await expect.poll(() => remaining.textContent()).toBe("2 de 3 descargas restantes por foto");
    await page.getByText("Tu ZIP con 2 fotos se está descargando.").waitFor();
    expect(started).toHaveLength(1);
    await screenshots(page, "descargas");

    // One photo alone: its own count and the page's follow.
    const single = await downloadOf(page, () => page.getByRole("button", { name: "Descargar bib-5173-0.jpg" }).click());
    expect((await readFile(await single.path())).equals((await originals()).get("bib-5173-0.jpg") as Buffer)).toBe(
      true,
    );
    await expect.poll(() => remaining.textContent()).toBe("1 a 2 de 3 descargas restantes por foto");
    await page.getByText("1 descarga restante de esta foto").waitFor();

    // The next ZIPs take the photos that still have downloads, until none has any.
    await downloadOf(page, () => zipAll.click());
    await expect.poll(() => remaining.textContent()).toBe("0 a 1 de 3 descargas restantes por foto");
    const last = await downloadOf(page, () => zipAll.click());
    expect([...(await readZip(await readFile(await last.path()))).keys()]).toEqual(["bib-5173-1.jpg"]);
    await expect.poll(() => remaining.textContent()).toBe("0 de 3 descargas restantes por foto");
    await page.getByText("Has alcanzado el límite de descargas para esta compra.").waitFor();
    await expect(zipAll.isDisabled()).resolves.toBe(true);
    // Three ZIPs and one photo: every click started exactly one download.
    expect(started).toHaveLength(4);
    expect(browser.pageErrors).toEqual([]);
  });

  it("on a phone: a declined payment says why, keeps the cart and pays it with 'Reintentar pago'", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=5173`);
    await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
    await checkout(page, 1, { name: "Luis Pérez", email: "luis@example.com" });
    const firstReference = await page.locator("dd").nth(1).textContent();
    await page.getByRole("button", { name: "Rechazar" }).click();

    await page.waitForURL(/\/download\?token=/);
    await page.getByRole("heading", { name: "Tu pago no se completó" }).waitFor();
    await page.getByText("Pago rechazado").waitFor();
    await page.getByText("Motivo: Transacción rechazada (sandbox)").waitFor();
    // Nothing promises photos that were not paid for.
    expect(await page.getByText("Descarga tus fotos").count()).toBe(0);
    expect(await page.getByText(/sin marca de agua/).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Descargar todas (ZIP)" }).count()).toBe(0);
    await page.getByText("1 foto · $ 15.000 COP", { exact: false }).waitFor();
    const kept = page.getByRole("list", { name: "Fotos del carrito" });
    await kept.locator("img").first().waitFor();
    expect(await kept.getByRole("listitem").count()).toBe(1);
    await screenshots(page, "rechazado");

    // 'Cambiar fotos' opens the purchase screen with the same photo and buyer.
    await page.getByRole("button", { name: "Cambiar fotos" }).click();
    await page.getByRole("heading", { name: "Fotos elegidas (1)" }).waitFor();
    expect(await page.getByLabel("Nombre completo").inputValue()).toBe("Luis Pérez");
    expect(await page.getByLabel("Correo electrónico").inputValue()).toBe("luis@example.com");
    await page.goBack();

    // 'Reintentar pago': a new checkout for the same photo, at the same price.
    await page.getByRole("button", { name: "Reintentar pago" }).click();
    await page.waitForURL(/\/sandbox\/wompi\/p\//);
    await page.getByText("$ 15.000").waitFor();
    expect(await page.locator("dd").nth(1).textContent()).not.toBe(firstReference);
    await page.getByRole("button", { name: "Aprobar" }).click();
    await page.waitForURL(/\/download\?token=/);
    await page.getByText("Pago aprobado").waitFor();
    await page.getByTestId("payment-summary").getByText("1 foto · Media Maratón de Bogotá · dorsal 5173").waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it("on a phone: a pending payment says so and turns into 'Pago aprobado' by itself", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=5173`);
    await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
    await checkout(page, 1, { name: "Marta Díaz", email: "marta@example.com" });
    await page.getByRole("button", { name: "Pendiente" }).click();
    await page.waitForURL(/\/download\?token=/);
    await page.getByRole("heading", { name: "Confirmando tu pago" }).waitFor();
    await page.getByText("Pago pendiente").waitFor();
    await page.getByText("$ 15.000 COP").waitFor();
    const transactionId = new URL(page.url()).searchParams.get("id") ?? "";
    const settled = await fetch(new URL(`/sandbox/wompi/v1/transactions/${transactionId}/settle`, dorsal.url), {
      method: "POST",
      headers: { authorization: `Bearer ${await sandboxPrivateKey()}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "APPROVED", notify: true }),
    });
    expect(settled.status).toBe(200);
    await page.getByText("Pago aprobado").waitFor();
    await page.getByRole("heading", { name: "Descarga tus fotos" }).waitFor();
  });

  it("browses on a phone from the events to the bib grid to the bib's photos", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search`);
    await page.getByRole("button", { name: `Ver dorsales de ${event.name}` }).click();
    await page.getByRole("heading", { name: "1 dorsal con fotos" }).waitFor();
    await page.getByRole("button", { name: "Dorsal 5173 con 2 fotos" }).click();
    await page.getByRole("heading", { name: "2 fotos del dorsal 5173" }).waitFor();
    expect(page.url()).toContain(`eventId=${event.id}`);
    expect(page.url()).toContain("dorsal=5173");
    await page.getByRole("button", { name: "Ver foto bib-5173-0.jpg" }).click();
    const preview = page.getByRole("dialog", { name: "Vista previa" });
    await preview.getByRole("img", { name: "Foto bib-5173-0.jpg" }).waitFor();
    await preview.getByRole("button", { name: "Cerrar" }).click();
    await page.goBack();
    await page.getByRole("heading", { name: "1 dorsal con fotos" }).waitFor();
  });

  it("explains a purchase screen reached without a bib", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/photo-purchase`);
    await page.getByText("No se ha especificado un número de dorsal válido.").waitFor();
  });

  it("lets the admin read the buyer's email in 'Correos enviados', whose link opens the purchase", async () => {
    const page = await browser.openPage(viewports.phone, { storageState: adminTab });
    await page.goto(`${dorsal.url}/settings`);
    await page.getByRole("link", { name: "Correos enviados" }).click();
    await page.getByRole("heading", { name: "Correos enviados", level: 1 }).waitFor();
    const entries = page.getByTestId("outbox-entry");
    // Ana's purchase above; newest first, each with its subject, recipient and date.
    const ana = entries.filter({ hasText: "Para ana@example.com" });
    await expect.poll(() => ana.count()).toBe(1);
    await ana.getByText("Tus fotos de Media Maratón de Bogotá están listas").waitFor();
    await page.screenshot({ path: "/tmp/outbox-list-390.png", fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);

    await ana.click();
    const message = page.getByTestId("outbox-message");
    await message.getByRole("heading", { name: "Tus fotos de Media Maratón de Bogotá están listas" }).waitFor();
    await message.getByText("Dorsal <no-responder@dorsal.local>").waitFor();
    await message.getByTestId("outbox-text").getByText("Hola Ana Gómez:", { exact: false }).waitFor();
    const link = message.getByRole("link", { name: /\/download\?token=/ });
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(new RegExp(`^${dorsal.url}/download\\?token=[A-Za-z0-9_-]{43}$`));
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/outbox-390.png", fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);
    await page.setViewportSize({ width: 1366, height: 900 });
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/outbox-1366.png", fullPage: true });

    // The emailed link is the purchase's second one: it opens the download page as the first does.
    await link.click();
    await page.waitForURL(href);
    await page.getByTestId("payment-confirmation").getByText("Pago aprobado").waitFor();
    await page.getByTestId("payment-summary").getByText("2 fotos · Media Maratón de Bogotá · dorsal 5173").waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it("lets the admin find a buyer's sale and give them a new link, which opens what is left of it", async () => {
    const page = await browser.openPage({ width: 1366, height: 900 }, { storageState: adminTab });
    await page.goto(`${dorsal.url}/analytics`);
    await page.getByRole("link", { name: "Ver ventas" }).click();
    await page.getByRole("heading", { name: "Ventas", level: 1 }).waitFor();
    const rows = page.getByTestId("sale-row");
    // The journeys above: Ana's paid sale, Luis's declined one and its paid retry, a pending-then-paid one.
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);

    await page.getByLabel("Correo o referencia").fill("ANA@example");
    await page.getByRole("button", { name: "Buscar", exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    const ana = rows.first();
    await ana.getByText("Pagada").waitFor();
    // She spent every download of one photo: the fewest left is what the row says.
    await ana.getByText("0 de 3").waitFor();
    await ana.getByRole("button", { name: /^Nuevo enlace para Ana Gómez/ }).click();
    const confirm = page.getByRole("alertdialog", { name: "¿Dar un nuevo enlace de descarga?" });
    await confirm.getByText("Los enlaces que tiene Ana Gómez dejarán de funcionar.", { exact: false }).waitFor();
    // Emailed to the buyer unless the admin unticks it.
    expect(await confirm.getByRole("checkbox", { name: /^Enviar al comprador por correo/ }).isChecked()).toBe(true);
    await confirm.getByRole("button", { name: "Crear enlace" }).click();
    await confirm.waitFor({ state: "detached" });
    const made = page.getByRole("status").filter({ hasText: "Nuevo enlace de descarga para Ana Gómez" });
    const link = await made.getByLabel("Enlace").inputValue();
    expect(link).toMatch(new RegExp(`^${dorsal.url}/download\\?token=[A-Za-z0-9_-]{43}$`));
    await made.getByText("Enviado por correo a ana@example.com.").waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/sales-1366.png", fullPage: true });

    await page.setViewportSize(viewports.phone);
    await page.getByLabel("Correo o referencia").fill("");
    await page.getByRole("button", { name: "Buscar", exact: true }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: "/tmp/sales-390.png", fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);

    // The buyer's new link opens the same purchase, downloads spent stay spent.
    await page.goto(link);
    await page.getByTestId("payment-confirmation").getByText("Pago aprobado").waitFor();
    await expect
      .poll(() => page.getByTestId("remaining-downloads").textContent())
      .toBe("0 de 3 descargas restantes por foto");
    expect(browser.pageErrors).toEqual([]);
  });

  it("on a phone: 'Tu cuenta' lists Luis's paid purchase once he verifies his email, and emails him a new link", async () => {
    const registered = await apiClient(dorsal.url).post<{ token: string; user: PublicUser }>(
      "/api/auth/athlete-register",
      { name: "Luis Pérez", email: "luis@example.com", password: "secreto12" },
    );
    expect(registered.status).toBe(201);
    const page = await browser.openPage(viewports.phone);
    const signedIn = JSON.stringify({ ...registered.body.user, token: registered.body.token });
    await page.addInitScript(`window.localStorage.setItem('race_photo_user', ${JSON.stringify(signedIn)})`);
    await page.goto(`${dorsal.url}/account`);
    await page.getByText("Sin verificar").waitFor();
    expect(await page.getByRole("heading", { name: "Tus compras" }).count()).toBe(0);

    // The link of the email the registration sent, as Luis opens it.
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const sent = await admin.get<OutboxPage>("/api/admin/outbox?limit=100");
    const mail = sent.body.messages.find(
      (entry) => entry.to === "luis@example.com" && entry.subject.startsWith("Confirma"),
    );
    const text = (await admin.get<OutboxMessage>(`/api/admin/outbox/${mail?.id}`)).body.text;
    await page.goto(/(http\S+\/verify-email\?token=\S+)/.exec(text)?.[1] ?? "");
    await page.getByText("Listo: tu correo está verificado.", { exact: false }).waitFor();
    await page.getByRole("link", { name: "Ir a Tu cuenta" }).click();

    // His retried payment, not the declined one.
    const purchase = page.getByRole("article", { name: "Media Maratón de Bogotá" });
    await purchase.getByText("Dorsal 5173 · 1 foto").waitFor();
    await purchase.getByText("$ 15.000 COP").waitFor();
    await purchase.getByText("3 de 3 descargas restantes por foto", { exact: false }).waitFor();
    expect(await page.getByRole("article").count()).toBe(1);
    await page.getByText("No tienes códigos de descarga").waitFor();
    await purchase.getByRole("button", { name: "Enviar enlace a mi correo" }).click();
    await purchase.getByText("Te enviamos el enlace a luis@example.com.", { exact: false }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, "cuenta");
    expect(browser.pageErrors).toEqual([]);
  });

  it("selfie search: the organizer switches it on, the athlete consents and buys the photo their bib missed", async () => {
    // Her photos of a new event: one shows bib 4821, on the other the bib cannot be read.
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const selfieEvent = (
      await admin.post<EventDto>("/api/events", { name: "Carrera de la Selfie", date: "2026-11-29", location: "Cali" })
    ).body;
    const organizer = await browser.openPage({ width: 1366, height: 900 }, { storageState: adminTab });
    await organizer.goto(`${dorsal.url}/events/${selfieEvent.id}/dorsales`);
    await organizer.getByRole("checkbox", { name: "Búsqueda por selfie" }).check({ force: true });
    await organizer.getByText("Búsqueda por selfie activada").waitFor();
    await browser.closePage();
    const portrait = probePortraitJpeg();
    const photos = [await makeBibPhoto("4821", { portrait }), await makeBibPhoto("", { portrait })];
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: selfieEvent.id,
      files: photos.map((photo, index) => ({
        filename: `meta-${index}.jpg`,
        contentType: "image/jpeg",
        size: photo.length,
      })),
    });
    for (const [index, target] of presigned.body.uploads.entries()) {
      await fetch(target.url, { method: "PUT", headers: target.headers, body: photos[index] as Buffer });
    }
    await waitFor(
      async () =>
        (await admin.get<EventDto>(`/api/events/${selfieEvent.id}`)).body.photoCount === 2 ? true : undefined,
      120_000,
      "both photos to be processed",
    );

    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search?eventId=${selfieEvent.id}&dorsal=4821`);
    await page.getByRole("heading", { name: "1 foto del dorsal 4821" }).waitFor();
    await page.getByRole("button", { name: "Buscar con una selfie" }).click();
    // The notice and an unticked consent come before any camera or file picker.
    const pick = page.getByRole("button", { name: "Tomar o elegir una selfie" });
    await page.getByText("Tu selfie no se guarda:").waitFor();
    expect(await pick.isDisabled()).toBe(true);
    await page.getByRole("checkbox", { name: /Acepto que se analice mi selfie/ }).check({ force: true });
    const { width = 0 } = await sharp(photos[0]).metadata();
    const selfie = await sharp(photos[0])
      .extract({
        left: Math.round(width * 0.35),
        top: 0,
        width: Math.round(width * 0.3),
        height: Math.round(width * 0.3),
      })
      .jpeg()
      .toBuffer();
    await page
      .getByTestId("selfie-input")
      .setInputFiles({ name: "selfie.jpg", mimeType: "image/jpeg", buffer: selfie });
    await page.getByText("Encontramos 2 fotos tuyas").waitFor();
    await page.getByRole("heading", { name: "1 foto más encontrada con tu selfie" }).waitFor();
    await page.getByRole("checkbox", { name: "Elegir meta-1.jpg" }).check({ force: true });
    await screenshots(page, "selfie");
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Comprar fotos" }).click();
    await page.getByRole("heading", { name: "Fotos elegidas (1)" }).waitFor();
    await expect.poll(() => page.getByTestId("cart-total").textContent()).toBe("$ 15.000 COP");
    await page.getByLabel("Nombre completo").fill("Eileen Collins");
    await page.getByLabel("Correo electrónico").fill("eileen@example.com");
    await page.getByRole("button", { name: /^Pagar/ }).click();
    await page.waitForURL(/\/sandbox\/wompi\/p\//);
    await page.getByRole("button", { name: "Aprobar" }).click();
    await page.waitForURL(/\/download\?token=/);
    await page.getByText("Pago aprobado").waitFor();
    await page.getByRole("button", { name: "Descargar meta-1.jpg" }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
