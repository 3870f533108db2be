import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { PhotoDto, SearchResponse } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { waitFor } from "../support/api";
import { makeBibPhoto } from "../support/bib-photo";
import { makeBigBibPhoto } from "../support/big-photo";
import { viewports } from "../support/browser";
import { uploadScreenSuite } from "../support/upload-screen";

/**
 * The upload screen (spec §2.5) with Uppy sending straight to the object store: photos picked
 * through the real file input are uploaded (a big one in resumable parts), per-file state and the
 * event's processing progress are shown; cancel and resume after a dropped connection; the phone
 * layout with gallery and camera buttons and the quick-upload checkbox.
 */

const { browser, pageErrors, url, admin, newEvent, signInToUpload, filesFolder } = uploadScreenSuite("2026-09-20");
const { desktop, phone } = viewports;
const androidChrome =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: "image/jpeg", buffer });

const photosOf = async (eventId: number) =>
  (await admin().get<{ photos: PhotoDto[] }>(`/api/events/${eventId}/photos`)).body.photos;

describe("upload screen", () => {
  it("uploads three picked photos (one in parts) and shows them processed", async () => {
    const event = await newEvent("Carrera de la Subida");
    const page = await browser.openPage(desktop);
    await signInToUpload(page);
    expect(await page.getByLabel("Evento").inputValue()).toBe(String(event.id));

    await page
      .getByLabel("Seleccionar fotos")
      .setInputFiles([
        jpeg("meta-8101.jpg", await makeBibPhoto("8101")),
        jpeg("meta-8102.jpg", await makeBibPhoto("8102")),
        jpeg("grande-8103.jpg", await makeBigBibPhoto("8103")),
      ]);
    await page.getByText("3 fotos seleccionadas").waitFor();
    // The instructions say how many go at once on this device.
    await page.getByText("(5 fotos a la vez)").waitFor();

    await page.getByRole("button", { name: "Subir 3 fotos por lotes" }).click();
    await page.getByText("Subiendo…").waitFor();
    await page.getByText("¡Fotos subidas!").waitFor({ timeout: 60_000 });
    expect(await page.getByText("Subida", { exact: true }).count()).toBe(3);
    await page.getByText("Se subieron 3 fotos.", { exact: false }).waitFor();

    const processing = page.getByRole("region", { name: /Procesamiento/ });
    await processing.getByText("Procesadas 3 de 3").waitFor({ timeout: 120_000 });
    await processing.getByText("Todas las fotos del evento están procesadas.").waitFor();

    const found = (await admin().get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=8103`)).body;
    expect(found.photos.map((photo) => photo.originalFilename)).toEqual(["grande-8103.jpg"]);
    expect(pageErrors).toEqual([]);
  });

  it("asks for photos and an event before uploading", async () => {
    await newEvent("Carrera sin fotos");
    const page = await browser.openPage(desktop);
    await signInToUpload(page);
    await page.getByRole("button", { name: "Subir por lotes" }).click();
    await page.getByText("Selecciona al menos una foto para subir").waitFor();

    await page.getByLabel("Seleccionar fotos").setInputFiles([jpeg("a.jpg", await makeBibPhoto("11"))]);
    await page.getByLabel("Evento").selectOption("");
    await page.getByRole("button", { name: "Subir 1 foto por lotes" }).click();
    await page.getByText("Selecciona un evento para subir las fotos").waitFor();
    // Nothing was sent, so there is no session to resume.
    expect(await page.getByRole("button", { name: "Reanudar subida" }).count()).toBe(0);
  });

  it("cancels an upload ('Subida cancelada') and keeps the photos selected", async () => {
    const event = await newEvent("Carrera cancelada");
    const page = await browser.openPage(desktop);
    await signInToUpload(page);
    // Holds the signing call so the upload is still running when Cancelar is pressed.
    await page.route("**/api/photos/uploads", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue().catch(() => undefined);
    });
    await page
      .getByLabel("Seleccionar fotos")
      .setInputFiles([jpeg("c1.jpg", await makeBibPhoto("21")), jpeg("c2.jpg", await makeBibPhoto("22"))]);
    await page.getByRole("button", { name: "Subir 2 fotos por lotes" }).click();
    await page.getByRole("button", { name: "Cancelar" }).click();
    await page.getByText("Subida cancelada").waitFor();
    await page.getByText("2 fotos seleccionadas").waitFor();
    await page.waitForTimeout(4000);
    // The held requests were answered after the cancel, but nothing reached storage.
    expect((await photosOf(event.id)).filter((photo) => photo.processingStatus !== "pending")).toEqual([]);
  });

  it("resumes a multipart upload after the connection drops, from the parts already stored", async () => {
    const event = await newEvent("Carrera con corte de red");
    const page = await browser.openPage(desktop);
    await signInToUpload(page);
    const partRequests: string[] = [];
    const dropPartTwo = async (route: Parameters<Parameters<Page["route"]>[1]>[0]) => {
      const url = new URL(route.request().url());
      partRequests.push(`${route.request().method()} ${url.searchParams.get("partNumber") ?? "-"}`);
      if (url.searchParams.get("partNumber") === "2") return route.abort("connectionreset");
      return route.continue();
    };
    await page.route("**/dorsal-originals/**", dropPartTwo);

    await page.getByLabel("Seleccionar fotos").setInputFiles([jpeg("corte-8201.jpg", await makeBigBibPhoto("8201"))]);
    await page.getByRole("button", { name: "Subir 1 foto por lotes" }).click();
    await page.getByText("Error de red durante la subida").waitFor({ timeout: 60_000 });
    expect(partRequests.filter((request) => request === "PUT 1")).toHaveLength(1);

    await page.unroute("**/dorsal-originals/**", dropPartTwo);
    await page.route("**/dorsal-originals/**", async (route) => {
      const url = new URL(route.request().url());
      partRequests.push(`${route.request().method()} ${url.searchParams.get("partNumber") ?? "-"}`);
      return route.continue();
    });
    await page.getByRole("button", { name: "Reanudar subida" }).click();
    await page.getByText("¡Fotos subidas!").waitFor({ timeout: 60_000 });
    // Resumed, not restarted: the store was asked which parts it has, and part 1 was not sent again.
    expect(partRequests).toContain("GET -");
    expect(partRequests.filter((request) => request === "PUT 1")).toHaveLength(1);
    await page
      .getByRole("region", { name: /Procesamiento/ })
      .getByText("Procesadas 1 de 1")
      .waitFor({
        timeout: 120_000,
      });
    const photos = await photosOf(event.id);
    expect(photos.filter((photo) => photo.processingStatus === "successful").map((p) => p.detectedDorsals)).toEqual([
      ["8201"],
    ]);
  });

  it("resumes after the tab is closed mid-upload: the photo is picked again and only the missing parts go", async () => {
    const event = await newEvent("Carrera con pestaña cerrada");
    const first = await browser.openPage(desktop);
    await signInToUpload(first);
    // A file on disk keeps its name, size and date, which is how Uppy recognises it when picked again.
    const file = path.join(await filesFolder(), "cerrada-8301.jpg");
    await writeFile(file, await makeBigBibPhoto("8301"));
    const firstTab: string[] = [];
    await first.route("**/dorsal-originals/**", async (route) => {
      const partNumber = new URL(route.request().url()).searchParams.get("partNumber");
      firstTab.push(`${route.request().method()} ${partNumber ?? "-"}`);
      // Part 2 never gets an answer: the tab is closed while it is on its way.
      if (partNumber !== "2") await route.continue();
    });
    await first.getByLabel("Seleccionar fotos").setInputFiles(file);
    await first.getByRole("button", { name: "Subir 1 foto por lotes" }).click();
    await waitFor(async () => (firstTab.includes("PUT 2") ? true : undefined), 30_000, "part 2 to be sent");
    // Golden Retriever writes its state a moment after each change.
    await first.waitForTimeout(1500);

    const second = await first.context().newPage();
    await first.close();
    const secondTab: string[] = [];
    await second.route("**/dorsal-originals/**", async (route) => {
      secondTab.push(
        `${route.request().method()} ${new URL(route.request().url()).searchParams.get("partNumber") ?? "-"}`,
      );
      await route.continue();
    });
    await second.goto(`${url()}/upload`);
    await second.getByTitle("cerrada-8301.jpg").waitFor();
    // Too big to keep in the browser: the bytes are asked for again, the upload's state was kept.
    await second.getByText("Vuelve a elegirla").waitFor();
    await second.getByLabel("Seleccionar fotos").setInputFiles(file);
    await second.getByText("Vuelve a elegirla").waitFor({ state: "detached" });
    await second.getByRole("button", { name: "Reanudar subida" }).click();
    await second.getByText("¡Fotos subidas!").waitFor({ timeout: 60_000 });

    expect(firstTab.filter((request) => request.startsWith("POST"))).toEqual(["POST -"]);
    expect(secondTab).toContain("GET -");
    expect(secondTab.filter((request) => request === "PUT 1")).toEqual([]);
    expect(secondTab.filter((request) => request.startsWith("POST"))).toEqual(["POST -"]);
    await second
      .getByRole("region", { name: /Procesamiento/ })
      .getByText("Procesadas 1 de 1")
      .waitFor({
        timeout: 120_000,
      });
    expect((await photosOf(event.id)).map((photo) => [photo.processingStatus, photo.detectedDorsals])).toEqual([
      ["successful", ["8301"]],
    ]);
  });

  it("on a phone: gallery and camera buttons, the quick-upload checkbox, 2 at a time, compression", async () => {
    const event = await newEvent("Carrera desde el celular");
    const page = await browser.openPage(phone);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setUserAgentOverride", { userAgent: androidChrome });
    await signInToUpload(page);

    await page.getByRole("button", { name: "Galería", exact: true }).waitFor();
    await page.getByRole("button", { name: "Cámara", exact: true }).waitFor();
    expect(await page.getByLabel("Elegir fotos de la galería").getAttribute("accept")).toBe("image/*");
    const camera = page.getByLabel("Tomar foto con la cámara");
    expect(await camera.getAttribute("capture")).toBe("environment");
    expect(await camera.getAttribute("accept")).toBe("image/*");
    await page.getByText("Subida rápida (sin comprimir las fotos)").waitFor();
    await page.getByText("(2 fotos a la vez)").waitFor();

    // A 17 MP, 20 MB photo is compressed to 1920 px before it leaves the phone: one small PUT, no multipart.
    const sent: string[] = [];
    await page.route("**/dorsal-originals/**", async (route) => {
      sent.push(`${route.request().method()} ${new URL(route.request().url()).searchParams.get("partNumber") ?? "-"}`);
      await route.continue();
    });
    await page
      .getByLabel("Elegir fotos de la galería")
      .setInputFiles([jpeg("cel-8401.jpg", await makeBigBibPhoto("8401"))]);
    await page.getByRole("button", { name: "Subir 1 foto por lotes" }).click();
    await page.getByText("¡Fotos subidas!").waitFor({ timeout: 60_000 });
    expect(sent).toEqual(["PUT -"]);
    await page
      .getByRole("region", { name: /Procesamiento/ })
      .getByText("Procesadas 1 de 1")
      .waitFor({
        timeout: 120_000,
      });
    const [photo] = await photosOf(event.id);
    expect(photo).toMatchObject({ originalFilename: "cel-8401.jpg", detectedDorsals: ["8401"] });
    expect(pageErrors).toEqual([]);
  });

  it("the mobile diagnostic (/mobile-test) posts photos with the event id and shows the answer", async () => {
    const event = await newEvent("Carrera de diagnóstico");
    const page = await browser.openPage(phone);
    await signInToUpload(page);
    await page.goto(`${url()}/mobile-test`);
    await page.getByRole("heading", { name: "Diagnóstico de carga móvil" }).waitFor();
    expect(await page.getByLabel("Evento").inputValue()).toBe(String(event.id));
    await page.getByLabel("Fotos").setInputFiles([jpeg("diag-8501.jpg", await makeBibPhoto("8501"))]);
    await page.getByRole("button", { name: "Enviar prueba" }).click();
    const result = page.getByRole("region", { name: "Resultado" });
    await result.getByText("/api/photos/upload").waitFor();
    await result.getByText("1 foto(s) recibida(s); procesando").waitFor();
    await result.getByText("Recibidas: 1 · Fallidas: 0").waitFor();
    expect((await photosOf(event.id)).map((photo) => photo.originalFilename)).toEqual(["diag-8501.jpg"]);
  });
});
