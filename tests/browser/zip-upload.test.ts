import { writeFile } from "node:fs/promises";
import path from "node:path";
import { messages, type PhotoPage, zipSkipReasons } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { waitFor } from "../support/api";
import { makeBigBibPhoto } from "../support/big-photo";
import { viewports } from "../support/browser";
import { uploadScreenSuite } from "../support/upload-screen";
import { makeZip } from "../support/zip";

/**
 * The "Subir archivo ZIP" card of the upload screen (spec §2.5, §4, §8): a ZIP picked through the
 * real file input goes straight to storage (one PUT, or parts when big), then the batch is
 * followed every 2 s — its state in Spanish, its counters and the entries skipped with their
 * reason — until the photos are in the event, and the uploader's history lists it. Resuming after a dropped connection and after a
 * closed tab, bad names, cancelling, failed status checks and the phone layout too. Beside it, the
 * cloud-drive card imports a folder of the runtime's drive stand-in into the same event.
 */

const { pageErrors, url, admin, newEvent, openUploadScreen, filesFolder, onDisk } = uploadScreenSuite("2026-10-04");
const { desktop, phone } = viewports;

const zipCard = (page: Page) => page.getByRole("region", { name: "Subir archivo ZIP" });
const zipFile = (name: string, buffer: Buffer) => ({ name, mimeType: "application/zip", buffer });

/** Two bib photos, a text file and a path-traversal entry (yazl refuses `../`, so it is patched in). */
async function raceZip(bibs: [string, string]): Promise<Buffer> {
  return makeZip(
    [
      { name: "fotos/" },
      { name: `fotos/meta-${bibs[0]}.jpg`, data: await makeBibPhoto(bibs[0]) },
      { name: `fotos/salida-${bibs[1]}.jpg`, data: await makeBibPhoto(bibs[1]), compress: false },
      { name: "notas.txt", data: Buffer.from("Fotos de la carrera del domingo") },
      { name: "XX/evil.jpg", data: await makeBibPhoto("666", { width: 400, height: 300 }) },
    ],
    { "XX/evil.jpg": "../evil.jpg" },
  );
}

const photosOf = async (eventId: number) =>
  (await admin().get<PhotoPage>(`/api/events/${eventId}/photos?limit=100`)).body.photos;

/**
 * Every request the page sends to the originals bucket, as "METHOD partNumber|-"; `hold` decides
 * what happens to a part instead of sending it (the connection drops, or it never gets an answer).
 */
async function recordStorage(page: Page, hold?: { partNumber: string; as: "reset" | "hang" }): Promise<string[]> {
  const sent: string[] = [];
  await page.route("**/dorsal-originals/**", async (route) => {
    const partNumber = new URL(route.request().url()).searchParams.get("partNumber");
    sent.push(`${route.request().method()} ${partNumber ?? "-"}`);
    if (hold && partNumber === hold.partNumber) {
      if (hold.as === "reset") await route.abort("connectionreset");
      return;
    }
    await route.continue();
  });
  return sent;
}

/** About 12.7 MiB stored, not deflated: sent in three 5 MiB parts (the last one short). */
const bigZip = async (name: string, bib: string) =>
  makeZip([{ name, data: await makeBigBibPhoto(bib), compress: false }]);

describe("ZIP upload card", () => {
  it("uploads a picked ZIP, follows it to Completado and lists the skipped entries with their reason", async () => {
    const event = await newEvent("Carrera del ZIP");
    const page = await openUploadScreen(desktop);
    expect(await page.getByLabel("Evento").inputValue()).toBe(String(event.id));
    const card = zipCard(page);
    await card.getByText("hasta 5.000 fotos").waitFor();
    const sent = await recordStorage(page);
    const statusChecks: number[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/photos/batch-status/")) statusChecks.push(Date.now());
    });

    await card.getByLabel("Archivo ZIP").setInputFiles(zipFile("carrera.zip", await raceZip(["7101", "7102"])));
    await card.getByText(/^carrera\.zip · /).waitFor();
    await card.getByRole("button", { name: "Subir ZIP" }).click();

    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    await card.getByText("Total: 4", { exact: true }).waitFor();
    await card.getByText("Extraídas: 2", { exact: true }).waitFor();
    await card.getByText("Procesadas: 2", { exact: true }).waitFor();
    await card.getByText("Omitidas: 2", { exact: true }).waitFor();
    const skipped = card.getByRole("list", { name: "Archivos omitidos" }).getByRole("listitem");
    expect((await skipped.allTextContents()).sort()).toEqual([
      `../evil.jpg: ${zipSkipReasons.unsafePath}`,
      `notas.txt: ${zipSkipReasons.notImage}`,
    ]);
    expect(await card.getByRole("progressbar", { name: "Progreso del ZIP" }).getAttribute("aria-valuenow")).toBe("100");
    // A small ZIP is one PUT of the archive; the status was asked about every 2 s, not in a tight loop.
    expect(sent).toEqual(["PUT -"]);
    expect(statusChecks.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < statusChecks.length; i++) {
      expect((statusChecks[i] ?? 0) - (statusChecks[i - 1] ?? 0)).toBeGreaterThanOrEqual(1900);
    }

    // The uploader's history lists the ZIP with its batch's figures.
    const history = page.getByRole("region", { name: "Mis subidas" }).getByRole("listitem");
    expect(await history.count()).toBe(1);
    await history.getByText(/ · ZIP carrera\.zip · 4 archivos$/).waitFor();
    await history.getByText("2 extraídas · 2 procesadas · 2 omitidas").waitFor();
    await history.getByText("Completado", { exact: true }).waitFor();

    const photos = await photosOf(event.id);
    expect(photos.map((photo) => photo.originalFilename).sort()).toEqual(["meta-7101.jpg", "salida-7102.jpg"]);
    expect(photos.map((photo) => photo.processingStatus)).toEqual(["successful", "successful"]);
    expect(photos.flatMap((photo) => photo.detectedDorsals).sort()).toEqual(["7101", "7102"]);

    // The third source: the runtime's drive stand-in, authorized in its popup, a folder previewed
    // (12, then '+N más') and another imported into the same event, followed like a ZIP.
    const drive = page.getByRole("region", { name: "Importar desde Google Drive" });
    const popup = page.waitForEvent("popup");
    await drive.getByRole("button", { name: "Conectar Google Drive" }).click();
    await (await popup).getByRole("button", { name: "Autorizar" }).click();
    await page.getByText("Google Drive conectado").waitFor();
    const folder = drive.getByRole("combobox", { name: "Carpeta" });
    await folder.selectOption({ label: "Carrera 10K - Salida" });
    await drive.getByText("+3 más", { exact: true }).waitFor();
    expect(await drive.getByRole("list", { name: "Vista previa" }).getByRole("listitem").count()).toBe(12);
    await folder.selectOption({ label: "Carrera 10K - Llegada" });
    await drive.getByRole("button", { name: "Importar fotos" }).click();
    await drive.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    await drive.getByText("Importadas: 3", { exact: true }).waitFor();
    await drive.getByText("Procesadas: 3", { exact: true }).waitFor();
    await history.getByText(/ · Google Drive Carrera 10K - Llegada · 3 archivos$/).waitFor();
    expect((await photosOf(event.id)).map((photo) => photo.originalFilename).sort()).toEqual([
      "dorsal-4821.jpg",
      "dorsal-517.jpg",
      "dorsal-93.jpg",
      "meta-7101.jpg",
      "salida-7102.jpg",
    ]);
    expect(pageErrors).toEqual([]);
  });

  it("sends a big ZIP in parts through the same uploader and imports it", async () => {
    const event = await newEvent("Carrera del ZIP grande");
    const page = await openUploadScreen(desktop);
    const sent = await recordStorage(page);
    const zip = await bigZip("grande-7201.jpg", "7201");
    expect(zip.length).toBeGreaterThan(10 * 1024 * 1024);

    const card = zipCard(page);
    await card.getByLabel("Archivo ZIP").setInputFiles(await onDisk("grande.zip", zip));
    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    await card.getByText("Total: 1", { exact: true }).waitFor();
    await card.getByText("Procesadas: 1", { exact: true }).waitFor();
    expect(await card.getByRole("list", { name: "Archivos omitidos" }).count()).toBe(0);

    // CreateMultipartUpload, the parts, CompleteMultipartUpload: never one big PUT.
    expect(sent[0]).toBe("POST -");
    expect(sent.filter((request) => /^PUT \d+$/.test(request)).length).toBeGreaterThanOrEqual(3);
    expect(sent).not.toContain("PUT -");
    expect(sent.at(-1)).toBe("POST -");
    const photos = await photosOf(event.id);
    expect(photos.map((photo) => [photo.originalFilename, photo.detectedDorsals])).toEqual([
      ["grande-7201.jpg", ["7201"]],
    ]);
    expect(pageErrors).toEqual([]);
  });

  it("resumes after the connection drops: 'Reanudar subida del ZIP' sends only the missing parts", async () => {
    const event = await newEvent("Carrera del ZIP con corte de red");
    const page = await openUploadScreen(desktop);
    const card = zipCard(page);
    const dropped = await recordStorage(page, { partNumber: "2", as: "reset" });
    await card
      .getByLabel("Archivo ZIP")
      .setInputFiles(await onDisk("corte.zip", await bigZip("corte-7251.jpg", "7251")));
    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText("Error de red durante la subida").waitFor({ timeout: 60_000 });
    expect(dropped.filter((request) => request === "PUT 1")).toHaveLength(1);

    await page.unrouteAll({ behavior: "wait" });
    const resumed = await recordStorage(page);
    await card.getByRole("button", { name: "Reanudar subida del ZIP" }).click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    // Resumed, not restarted: the store was asked which parts it has (ListParts), part 1 stayed
    // where it was, no second multipart upload was started, and the batch is the first one.
    expect(resumed[0]).toBe("GET -");
    expect(resumed).not.toContain("PUT 1");
    expect(resumed.filter((request) => request === "POST -")).toHaveLength(1);
    await card.getByText("Procesadas: 1", { exact: true }).waitFor();
    const photos = await photosOf(event.id);
    expect(photos.map((photo) => [photo.originalFilename, photo.detectedDorsals])).toEqual([
      ["corte-7251.jpg", ["7251"]],
    ]);
    expect(await page.evaluate(`localStorage.getItem("dorsal:zip-en-curso")`)).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it("sends the whole ZIP again when the store no longer has the interrupted upload", async () => {
    const event = await newEvent("Carrera del ZIP olvidado");
    const page = await openUploadScreen(desktop);
    const card = zipCard(page);
    await recordStorage(page, { partNumber: "2", as: "reset" });
    await card
      .getByLabel("Archivo ZIP")
      .setInputFiles(await onDisk("olvidado.zip", await bigZip("olvidado-7271.jpg", "7271")));
    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText("Error de red durante la subida").waitFor({ timeout: 60_000 });
    // The store drops the parts meanwhile, as S3's lifecycle rule does a day later.
    const kept = JSON.parse(String(await page.evaluate(`localStorage.getItem("dorsal:zip-en-curso")`))) as {
      multipart: { key: string; uploadId: string };
    };
    const abort = await admin().post<{ url: string }>("/api/photos/uploads/sign", { step: "abort", ...kept.multipart });
    expect((await fetch(abort.body.url, { method: "DELETE" })).status).toBe(204);

    await page.unrouteAll({ behavior: "wait" });
    const sent = await recordStorage(page);
    const resume = card.getByRole("button", { name: "Reanudar subida del ZIP" });
    await resume.click();
    await card.getByText(/^La subida anterior ya no está en el almacenamiento/).waitFor({ timeout: 30_000 });
    expect(sent).toEqual(["GET -"]);
    await resume.click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    // A new multipart upload of every part, to the same batch.
    expect(sent.slice(1, 3)).toEqual(["POST -", "PUT 1"]);
    expect(sent.at(-1)).toBe("POST -");
    expect((await photosOf(event.id)).map((photo) => photo.detectedDorsals)).toEqual([["7271"]]);
    expect(pageErrors).toEqual([]);
  });

  it("resumes after the tab is closed: the screen finds the unfinished ZIP and sends the rest of the same file", async () => {
    const event = await newEvent("Carrera del ZIP con pestaña cerrada");
    const first = await openUploadScreen(desktop);
    // A file on disk keeps its name, size and date, which is how the same file is recognised when picked again.
    const folder = await filesFolder();
    const file = path.join(folder, "cerrada.zip");
    await writeFile(file, await bigZip("cerrada-7261.jpg", "7261"));
    const firstTab = await recordStorage(first, { partNumber: "2", as: "hang" });
    await zipCard(first).getByLabel("Archivo ZIP").setInputFiles(file);
    await zipCard(first).getByRole("button", { name: "Subir ZIP" }).click();
    await waitFor(async () => (firstTab.includes("PUT 2") ? true : undefined), 30_000, "part 2 to be sent");

    const second = await first.context().newPage();
    await first.close();
    const secondTab = await recordStorage(second);
    await second.goto(`${url()}/upload`);
    const card = zipCard(second);
    await card.getByText("Subida de ZIP sin terminar").waitFor();
    await card.getByText(/cerrada\.zip \(.+ MB\) no terminó de subirse/).waitFor();
    const resume = card.getByRole("button", { name: "Reanudar subida del ZIP" });
    expect(await resume.isDisabled()).toBe(true);
    // Another ZIP is not the one to resume: the card names the file it needs.
    const other = path.join(folder, "otra.zip");
    await writeFile(other, await raceZip(["7262", "7263"]));
    await card.getByLabel("Archivo ZIP").setInputFiles(other);
    await card.getByText(/^Para reanudar, elige el mismo archivo: cerrada\.zip/).waitFor();
    expect(await resume.isDisabled()).toBe(true);

    await card.getByLabel("Archivo ZIP").setInputFiles(file);
    await resume.click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    expect(firstTab.filter((request) => request === "POST -")).toEqual(["POST -"]);
    expect(secondTab[0]).toBe("GET -");
    expect(secondTab).not.toContain("PUT 1");
    expect(secondTab.filter((request) => request === "POST -")).toEqual(["POST -"]);
    const photos = await photosOf(event.id);
    expect(photos.map((photo) => [photo.originalFilename, photo.detectedDorsals])).toEqual([
      ["cerrada-7261.jpg", ["7261"]],
    ]);

    // Coming back once more finds nothing unfinished.
    await second.reload();
    await second.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
    await zipCard(second).getByText("hasta 5.000 fotos").waitFor();
    expect(await zipCard(second).getByText("Subida de ZIP sin terminar").count()).toBe(0);
  });

  it("refuses a file that is not a ZIP, and says why 'Subir ZIP' waits while none is chosen", async () => {
    await newEvent("Carrera sin ZIP");
    const page = await openUploadScreen(desktop);
    const batches: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/photos/zip-batches")) batches.push(request.method());
    });
    const card = zipCard(page);
    const send = card.getByRole("button", { name: "Subir ZIP" });
    const reason = "Elige un archivo ZIP para subirlo.";

    // Nothing chosen: the button cannot be pressed, and says why in plain sight.
    expect(await send.isDisabled()).toBe(true);
    expect(await send.getAttribute("aria-describedby")).toBe("zip-blocked-reason");
    await card.getByText(reason).waitFor();

    await card.getByLabel("Archivo ZIP").setInputFiles(zipFile("carrera.zip", await raceZip(["7301", "7302"])));
    await card.getByText(reason).waitFor({ state: "detached" });
    expect(await send.isDisabled()).toBe(false);
    await card
      .getByLabel("Archivo ZIP")
      .setInputFiles({ name: "fotos.rar", mimeType: "application/x-rar", buffer: Buffer.from("Rar!") });
    await card.getByText(messages.zipInvalidName).waitFor();
    // The refused file replaced the good one: nothing is left to upload.
    await card.getByText("Ningún archivo elegido").waitFor();
    expect(await send.isDisabled()).toBe(true);
    await card.getByText(reason).waitFor();
    expect(batches).toEqual([]);
  });

  it("cancels an upload ('Subida cancelada') and says when the progress cannot be checked", async () => {
    const event = await newEvent("Carrera cancelada del ZIP");
    const page = await openUploadScreen(desktop);
    const card = zipCard(page);
    const zip = await raceZip(["7401", "7402"]);
    // Holds the batch creation so the upload is still running when Cancelar is pressed.
    await page.route("**/api/photos/zip-batches", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue().catch(() => undefined);
    });
    await card.getByLabel("Archivo ZIP").setInputFiles(zipFile("cancelada.zip", zip));
    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText(/Subiendo ZIP… \d+%/).waitFor();
    await card.getByRole("progressbar", { name: "Progreso de la subida del ZIP" }).waitFor();
    await card.getByRole("button", { name: "Cancelar" }).click();
    await card.getByText("Subida cancelada").waitFor();
    await page.waitForTimeout(3000);
    expect(await card.getByText("Subida cancelada").count()).toBe(1);
    expect(await photosOf(event.id)).toEqual([]);

    // The ZIP is still picked: uploading it again works, but every status check fails.
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.route("**/api/photos/batch-status/**", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false,"error":"caído"}' }),
    );
    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText("Error al verificar el progreso").waitFor({ timeout: 30_000 });
    expect(await card.getByText("Completado", { exact: true }).count()).toBe(0);

    // Once the server answers again, Reintentar follows the batch to its end.
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await card.getByRole("button", { name: "Reintentar" }).click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    expect(await card.getByText("Error al verificar el progreso").count()).toBe(0);
    expect((await photosOf(event.id)).length).toBe(2);
  });

  it("on a phone: the card fits 390 px with a long file name and the skipped list", async () => {
    await newEvent("Carrera del ZIP en el celular");
    const page = await openUploadScreen(phone);
    const card = zipCard(page);
    const longName = `fotos-de-la-media-maraton-internacional-de-la-ciudad-${"x".repeat(60)}.zip`;
    await card.getByLabel("Archivo ZIP").setInputFiles(zipFile(longName, await raceZip(["7501", "7502"])));
    await card.getByText(longName, { exact: false }).waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);

    await card.getByRole("button", { name: "Subir ZIP" }).click();
    await card.getByText("Completado", { exact: true }).waitFor({ timeout: 120_000 });
    await card.getByText(`../evil.jpg: ${zipSkipReasons.unsafePath}`).waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    const box = await card.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY) <= phone.width).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
