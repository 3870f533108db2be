import type { EventConfigDto, EventDto, PhotoPage, PresignResponse, SearchResponse } from "@dorsal/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import {
  animationsDone,
  createBrowserHarness,
  imagesLoaded,
  type SignedInTab,
  signedInTab,
  signInAsAdmin,
  viewports,
} from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 3 through the organizer's screen: photos without a bib are listed, a bib is tagged and
 * another removed by hand (search follows at once), and the event is re-indexed. Issue 17: a bib the
 * event's settings rule out is refused by the server with the reason, and the typed text is kept.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;
/** An event whose bibs are a letter and 5 digits, left on the default digits-only format. */
let letterEvent: EventDto;

const { desktop, phone } = viewports;
const bibFile = "corredor-4821.jpg";
const blankFile = "sin-dorsal.jpg";

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();

  admin = apiClient(dorsal.url, await adminToken(dorsal));
  event = (await admin.post<EventDto>("/api/events", { name: "Media Maratón de Bogotá", date: "2026-07-26" })).body;

  const blank = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7d44" } })
    .jpeg()
    .toBuffer();
  const files: [string, Buffer][] = [
    [bibFile, await makeBibPhoto("4821")],
    [blankFile, blank],
  ];
  const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
    eventId: event.id,
    files: files.map(([filename, body]) => ({ filename, contentType: "image/jpeg", size: body.length })),
  });
  for (const [index, upload] of presigned.body.uploads.entries()) {
    const [, body] = files[index] as [string, Buffer];
    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: new Uint8Array(body) });
    expect(put.ok).toBe(true);
  }
  await waitFor(
    async () => {
      const current = (await admin.get<EventDto>(`/api/events/${event.id}`)).body;
      return current.photoCount === 2 ? true : undefined;
    },
    90_000,
    "two processed photos",
  );

  letterEvent = (await admin.post<EventDto>("/api/events", { name: "Carrera de Letras", date: "2026-08-02" })).body;
  const letterPhoto = await makeBibPhoto("M10380", { width: 1200, height: 900 });
  const [slot] = (
    await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: letterEvent.id,
      files: [{ filename: "corredor-m10380.jpg", contentType: "image/jpeg", size: letterPhoto.length }],
    })
  ).body.uploads;
  if (!slot) throw new Error("no upload slot");
  await fetch(slot.url, { method: "PUT", headers: slot.headers, body: new Uint8Array(letterPhoto) });
  await waitFor(
    async () => ((await admin.get<EventDto>(`/api/events/${letterEvent.id}`)).body.photoCount === 1 ? true : undefined),
    90_000,
    "the letter bib photo processed",
  );
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const openPage = (viewport: { width: number; height: number }) => browser.openPage(viewport);
/** A page whose tab the admin signed in on already: the review screen, not the login, is under test. */
const openSignedIn = (viewport: { width: number; height: number }) =>
  browser.openPage(viewport, { storageState: adminTab });

const search = async (bib: string) =>
  (await admin.get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`)).body;

const card = (page: Page, filename: string) => page.getByTestId("photo-card").filter({ hasText: filename });

/** Images load lazily; wait until every thumbnail in view has decoded so screenshots show them. */
async function thumbnailsLoaded(page: Page) {
  await imagesLoaded(page, "[data-testid=photo-card] img", { nonEmpty: true });
}

describe("bib review", () => {
  it("lets an organizer tag, untag and re-index bibs, and search follows", async () => {
    const page = await openPage(desktop);
    await signInAsAdmin(page, dorsal);

    // From the events list to the event's review screen.
    await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Eventos" }).click();
    await page.getByRole("link", { name: `Revisar dorsales de ${event.name}` }).click();
    await page.waitForURL(`${dorsal.url}/events/${event.id}/dorsales`);
    await page.getByRole("heading", { name: "Revisión de Dorsales" }).waitFor();
    await page.getByText(event.name).first().waitFor();

    // 'Sin dorsal' comes first and lists only the photo without a bib.
    const unbibbedTab = page.getByRole("tab", { name: /Sin dorsal/ });
    expect(await unbibbedTab.getAttribute("aria-selected")).toBe("true");
    await card(page, blankFile).waitFor();
    expect(await page.getByTestId("photo-card").count()).toBe(1);
    expect(await unbibbedTab.textContent()).toContain("1");
    await thumbnailsLoaded(page);
    await page.screenshot({ path: "/tmp/bibs-desktop-sin-dorsal.png", fullPage: true });

    // A bib the event cannot have is refused with the reason, and what was typed stays to be fixed:
    // nothing is cut or changed on the way (the event's bibs have 2 to 6 digits, numbers only).
    const input = card(page, blankFile).getByRole("textbox", { name: `Agregar dorsal a ${blankFile}` });
    const twentyDigits = "12345678901234567890";
    await input.fill(twentyDigits);
    expect(await input.inputValue()).toBe(twentyDigits);
    await input.press("Enter");
    await card(page, blankFile).getByText("Los dorsales de este evento tienen de 2 a 6 dígitos").waitFor();
    expect(await input.inputValue()).toBe(twentyDigits);
    await input.fill("M10380");
    await card(page, blankFile).getByText("Los dorsales de este evento tienen de 2 a 6 dígitos").waitFor({
      state: "detached",
    });
    await input.press("Enter");
    await card(page, blankFile).getByText("Los dorsales de este evento solo tienen números").waitFor();
    expect(await input.inputValue()).toBe("M10380");
    await page.screenshot({ path: "/tmp/bibs-desktop-refused.png" });
    expect((await search("1234567890")).totalFound).toBe(0);
    // The server is the one that refuses: the same answers without the screen.
    const photoId = (await admin.get<PhotoPage>(`/api/events/${event.id}/photos?filter=sin-dorsal`)).body.photos[0]?.id;
    const addOverApi = (dorsalNumber: string) =>
      admin.post<{ error: string }>(`/api/events/${event.id}/photos/${photoId}/bibs`, { dorsalNumber });
    expect(await addOverApi(twentyDigits)).toMatchObject({
      status: 400,
      body: { error: "Los dorsales de este evento tienen de 2 a 6 dígitos" },
    });
    expect(await addOverApi("7")).toMatchObject({ status: 400 });
    expect(await addOverApi("M10380")).toMatchObject({
      status: 400,
      body: { error: "Los dorsales de este evento solo tienen números" },
    });

    // Tag bib 77 by hand: Enter submits.
    await input.fill("77");
    await input.press("Enter");
    await card(page, blankFile).getByRole("button", { name: "Quitar dorsal 77" }).waitFor();
    await card(page, blankFile).getByText("Revisada").waitFor();
    expect(await input.inputValue()).toBe("");
    expect((await search("77")).photos.map((photo) => photo.originalFilename)).toEqual([blankFile]);

    // The other photo, under 'Todas', carries its machine bib with a confidence and a box.
    await page.getByRole("tab", { name: /Todas/ }).click();
    const bibCard = card(page, bibFile);
    await bibCard.getByRole("button", { name: "Quitar dorsal 4821" }).waitFor();
    expect(await bibCard.textContent()).toMatch(/4821\s*confianza\s*\d+%/);
    expect(await page.getByTestId("photo-card").count()).toBe(2);
    await thumbnailsLoaded(page);

    await bibCard.getByRole("button", { name: `Ver foto ${bibFile}` }).click();
    const preview = page.getByRole("dialog", { name: bibFile });
    await preview.getByRole("img", { name: `Foto ${bibFile}` }).waitFor();
    await imagesLoaded(page, "[role=dialog] img");
    expect(await preview.getByTestId("bib-box").count()).toBe(1);
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/bibs-desktop-dialog.png" });
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "hidden" });

    expect((await search("4821")).totalFound).toBe(1);
    await bibCard.getByRole("button", { name: "Quitar dorsal 4821" }).click();
    await bibCard.getByText("Sin dorsal").waitFor();
    await page.getByText("Dorsal 4821 quitado").waitFor();
    expect((await search("4821")).totalFound).toBe(0);
    // 'Sin dorsal' is reloaded out of sight, so its count follows the edit made under 'Todas'.
    await page.getByRole("tab", { name: /^Sin dorsal\s*1$/ }).waitFor();
    await page.screenshot({ path: "/tmp/bibs-desktop-todas.png", fullPage: true });

    // Re-indexing keeps both corrections.
    await page.getByRole("button", { name: "Re-indexar dorsales" }).click();
    const confirm = page.getByRole("alertdialog", { name: "¿Re-indexar los dorsales?" });
    await confirm.getByText("Las correcciones manuales se conservan").waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/bibs-desktop-confirm.png" });
    await confirm.getByRole("button", { name: "Re-indexar ahora" }).click();
    await page.getByText("Dorsales re-indexados").waitFor();
    await page.getByText("Ninguna foto cambió").waitFor();
    expect((await search("77")).totalFound).toBe(1);
    expect((await search("4821")).totalFound).toBe(0);

    // Back on 'Sin dorsal', the list is reloaded: the tagged photo left, the untagged one came in.
    // Looked for in that tab's panel: the 'Todas' panel lingers a moment while it unmounts.
    await unbibbedTab.click();
    const unbibbedPanel = page.getByRole("tabpanel", { name: /Sin dorsal/ });
    await unbibbedPanel.getByTestId("photo-card").filter({ hasText: bibFile }).waitFor();
    await unbibbedPanel.getByTestId("photo-card").filter({ hasText: blankFile }).waitFor({ state: "detached" });
    await page.getByRole("tabpanel", { name: /Todas/ }).waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });

  it("saves the recognition settings and rejects what is out of range", async () => {
    const page = await openSignedIn(desktop);
    await page.goto(`${dorsal.url}/events/${event.id}/dorsales`);
    const settings = page.getByRole("region", { name: "Reconocimiento" });
    const confidence = settings.getByRole("textbox", { name: "Confianza mínima" });
    await confidence.waitFor();
    expect(await confidence.inputValue()).toBe("90");

    await confidence.fill("120");
    await settings.getByRole("button", { name: "Guardar" }).click();
    await settings.getByText("Ingresa un número entre 0 y 100").waitFor();

    await confidence.fill("93");
    await settings.getByRole("textbox", { name: "Tamaño mínimo del dorsal" }).fill("0,2");
    await settings.getByRole("textbox", { name: "Mínimo de dígitos" }).fill("3");
    await settings.getByRole("textbox", { name: "Máximo de dígitos" }).fill("5");
    await settings.getByRole("button", { name: "Guardar" }).click();
    await page.getByText("Configuración guardada", { exact: true }).waitFor();
    const stored = await admin.get(`/api/events/${event.id}/config`);
    expect(stored.body).toMatchObject({
      ocrConfidenceThreshold: 93,
      dorsalSizeThreshold: 0.2,
      minDigits: 3,
      maxDigits: 5,
      allowLeadingZeros: false,
    });
    await settings.getByText(/^Versión 1 · /).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("lets the organizer pick a letter bib format with a live example; saved and re-indexed, the letter bib is found", async () => {
    const searchLetter = async (bib: string) =>
      (await admin.get<SearchResponse>(`/api/photos/search?eventId=${letterEvent.id}&dorsalNumber=${bib}`)).body;
    expect((await searchLetter("M10380")).totalFound).toBe(0);

    const page = await openSignedIn(desktop);
    await page.goto(`${dorsal.url}/events/${letterEvent.id}/dorsales`);
    const settings = page.getByRole("region", { name: "Reconocimiento" });
    const digitsOnly = settings.getByRole("radio", { name: "Solo números" });
    await digitsOnly.waitFor();
    expect(await digitsOnly.isChecked()).toBe(true);
    await settings.getByText("Ejemplo: 103804 · solo números, de 2 a 6 dígitos").waitFor();

    await settings.getByText("Letra antes del número").click();
    await settings.getByRole("textbox", { name: "Mínimo de dígitos" }).fill("5");
    await settings.getByRole("textbox", { name: "Máximo de dígitos" }).fill("5");
    await settings.getByText("Ejemplo: M10380 · una letra y 5 dígitos").waitFor();
    const letter = settings.getByRole("textbox", { name: "Letra" });
    await letter.fill("m");
    await settings.getByText("Ejemplo: M10380 · la letra M y 5 dígitos").waitFor();
    await letter.fill("");
    await settings.getByText("Ejemplo: M10380 · una letra y 5 dígitos").waitFor();
    await settings.screenshot({ path: "/tmp/bibs-desktop-letter-format.png" });

    await settings.getByRole("button", { name: "Guardar" }).click();
    await page.getByText("Configuración guardada", { exact: true }).waitFor();
    expect((await admin.get(`/api/events/${letterEvent.id}/config`)).body).toMatchObject({
      bibPattern: "^[A-Z]\\d+$",
      minDigits: 5,
      maxDigits: 5,
    });

    await page.getByRole("button", { name: "Re-indexar dorsales" }).click();
    await page
      .getByRole("alertdialog", { name: "¿Re-indexar los dorsales?" })
      .getByRole("button", { name: "Re-indexar ahora" })
      .click();
    await page.getByText("Dorsales re-indexados").waitFor();
    expect(await searchLetter("m10380")).toMatchObject({ totalFound: 1, dorsalNumber: "M10380" });
    await page.getByRole("tab", { name: /Todas/ }).click();
    await card(page, "corredor-m10380.jpg").getByRole("button", { name: "Quitar dorsal M10380" }).waitFor();

    // The same screen on a phone, with the saved format read back as picked.
    await page.setViewportSize(phone);
    await page.reload();
    await page.getByRole("radio", { name: "Letra antes del número" }).waitFor();
    expect(await page.getByRole("radio", { name: "Letra antes del número" }).isChecked()).toBe(true);
    await page
      .getByRole("region", { name: "Reconocimiento" })
      .screenshot({ path: "/tmp/bibs-phone-letter-format.png" });

    // A pattern set through the API that the choices cannot say is shown as it is, not lost.
    const saved = (await admin.get<EventConfigDto>(`/api/events/${letterEvent.id}/config`)).body;
    await admin.put(`/api/events/${letterEvent.id}/config`, { ...saved, bibPattern: "^(AB|CD)\\d+$" });
    await page.reload();
    const custom = page.getByRole("radio", { name: "Formato personalizado" });
    await custom.waitFor();
    expect(await custom.isChecked()).toBe(true);
    await page.getByText("Formato guardado: ^(AB|CD)\\d+$. Elige otra opción para reemplazarlo.").waitFor();
    await page
      .getByRole("region", { name: "Reconocimiento" })
      .screenshot({ path: "/tmp/bibs-phone-custom-format.png" });
    expect(pageErrors).toEqual([]);
  });

  it("works on a phone", async () => {
    const page = await openSignedIn(phone);
    await page.goto(`${dorsal.url}/events/${event.id}/dorsales`);
    await card(page, bibFile).waitFor();
    await thumbnailsLoaded(page);
    // Nothing wider than the screen.
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/bibs-phone-sin-dorsal.png", fullPage: true });

    await page.getByRole("tab", { name: /Todas/ }).click();
    await card(page, blankFile).waitFor();
    await thumbnailsLoaded(page);
    await page.screenshot({ path: "/tmp/bibs-phone-todas.png", fullPage: true });

    await card(page, blankFile)
      .getByRole("button", { name: `Ver foto ${blankFile}` })
      .click();
    await page.getByRole("dialog", { name: blankFile }).getByRole("button", { name: "Quitar dorsal 77" }).waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/bibs-phone-dialog.png" });
    expect(pageErrors).toEqual([]);
  });

  // Issue 18: a start list decides which reads are published; a read off it is proposed, on a phone.
  it("imports a start list, and a read off the list is accepted as its listed bib in one click", async () => {
    const page = await openSignedIn(phone);
    await page.goto(`${dorsal.url}/events`);
    await page.getByRole("link", { name: `Lista de inscritos de ${event.name}` }).click();
    await page.getByRole("heading", { name: "Lista de inscritos", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Este evento no tiene lista de inscritos" }).waitFor();
    await page.screenshot({ path: "/tmp/start-list-phone-empty.png", fullPage: true });

    const fileInput = page.getByLabel("Archivo CSV de inscritos");
    const csv = (text: string) => ({ name: "inscritos.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
    // One bad line: nothing is imported, and the line says why.
    await fileInput.setInputFiles(csv("Dorsal;Nombre;Categoría\n4821;Ana Gómez;F30\n5058;;M40\n"));
    await page.getByText("Línea 3: falta el nombre").waitFor();
    await page.getByText(/1 línea tiene un error: no se importó nada/).waitFor();
    await page.getByRole("heading", { name: "Este evento no tiene lista de inscritos" }).waitFor();

    await fileInput.setInputFiles(
      csv("Dorsal;Nombre;Categoría\n4821;Ana Gómez;F30\n5058;Luis Pérez;M40\n300;Íngrid Díaz;F20\n"),
    );
    await page.getByText("3 participantes importados").waitFor();
    // Photos processed before the list keep their bibs until a re-index: the screen offers it.
    await page.getByRole("button", { name: "Re-indexar dorsales ahora" }).waitFor();
    const table = page.getByRole("region", { name: "Inscritos" });
    await table.getByRole("cell", { name: "Luis Pérez" }).waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/start-list-phone.png", fullPage: true });

    // A runner whose bib reads 5050, one digit off the listed 5058.
    const offList = "corredor-5050.jpg";
    const photo = await makeBibPhoto("5050");
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: [{ filename: offList, contentType: "image/jpeg", size: photo.length }],
    });
    const [upload] = presigned.body.uploads;
    if (!upload) throw new Error("no upload slot");
    await fetch(upload.url, { method: "PUT", headers: upload.headers, body: new Uint8Array(photo) });
    await waitFor(
      async () => ((await admin.get<EventDto>(`/api/events/${event.id}`)).body.photoCount === 3 ? true : undefined),
      90_000,
      "the third photo processed",
    );
    expect((await search("5050")).totalFound).toBe(0);

    await page.getByRole("link", { name: "Revisar dorsales" }).click();
    const suggested = card(page, offList);
    const accept = suggested.getByRole("button", { name: "Aceptar el dorsal 5058 de Luis Pérez en lugar de 5050" });
    await accept.waitFor();
    expect(await accept.textContent()).toBe("¿Es el 5058? · Luis Pérez");
    await thumbnailsLoaded(page);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/start-list-phone-suggestion.png", fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: "/tmp/start-list-desktop-suggestion.png" });
    await page.setViewportSize(phone);

    // From the keyboard: one press accepts it.
    await accept.focus();
    await page.keyboard.press("Enter");
    await suggested.getByRole("button", { name: "Quitar dorsal 5058" }).waitFor();
    await page.getByText("Dorsal 5058 agregado").waitFor();
    await accept.waitFor({ state: "detached" });
    expect((await search("5058")).photos.map((found) => found.originalFilename)).toEqual([offList]);
    expect((await search("5058")).participantName).toBe("Luis Pérez");

    await page.getByRole("link", { name: "Lista de inscritos" }).click();
    await page.setViewportSize({ width: 1366, height: 900 });
    // The accepted bib's photo counts on the list.
    await table
      .getByRole("row")
      .filter({ hasText: "Luis Pérez" })
      .filter({ has: page.getByRole("cell", { name: "1", exact: true }) })
      .waitFor();
    await page.screenshot({ path: "/tmp/start-list-desktop.png", fullPage: true });

    // The athlete's results name whose bib it is.
    await browser.closePage();
    const athletePage = await openPage(phone);
    await athletePage.goto(`${dorsal.url}/search?eventId=${event.id}&dorsal=5058`);
    await athletePage.getByRole("heading", { name: "1 foto del dorsal 5058" }).waitFor();
    await athletePage.getByText("Dorsal 5058 · Luis Pérez").waitFor();
    await athletePage.screenshot({ path: "/tmp/start-list-phone-athlete.png" });
    expect(pageErrors).toEqual([]);
  });
});
