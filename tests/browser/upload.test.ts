import { type EventDto, messages, type PhotoDto, type PublicUser, type SearchResponse } from "@dorsal/shared";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { apiClient, waitFor } from "../support/api";
import { makeBigBibPhoto } from "../support/big-photo";
import { animationsDone, signIn, viewports } from "../support/browser";
import { recordTexts, uploadScreenSuite, wholePage } from "../support/upload-screen";

/**
 * The upload screen (spec §2.5) with Uppy sending straight to the object store: one action sends
 * the photos picked through the real file input (a big one in resumable parts) and says why it
 * cannot while there is no event or photo; the upload's own progress against a total fixed from
 * the start, then its processing, duplicates reported as such and the way to the bib review,
 * where an admin removes a duplicate; the uploader's own history; cancel and resume after a
 * dropped connection or a closed tab; the phone layout with gallery and camera buttons and the
 * choice to send originals.
 */

const { browser, pageErrors, url, admin, newEvent, openSignedIn, goToUpload, openUploadScreen, onDisk } =
  uploadScreenSuite("2026-09-20");
const { desktop, phone } = viewports;
/** The size the upload screen is looked at on a laptop. */
const laptop = { width: 1366, height: 900 };
const androidChrome =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: "image/jpeg", buffer });

const photosOf = async (eventId: number) =>
  (await admin().get<{ photos: PhotoDto[] }>(`/api/events/${eventId}/photos`)).body.photos;

const zipCard = (page: Page) => page.getByRole("region", { name: "Subir archivo ZIP" });
const myUploads = (page: Page) => page.getByRole("region", { name: "Mis subidas" });
/** The upload just sent, once its processing is over. */
const finishedUpload = (page: Page) => page.getByRole("region", { name: "Procesamiento terminado" });
/** Every count of the screen's progress texts: what the uploader saw go by. */
const progressTexts =
  /Subiendo \d+ de \d+ fotos?|Subidas \d+ fotos?; procesando…|\d+ de \d+ fotos? listas?|¡Fotos subidas!|Procesadas \d+ de \d+/;

/** The visible text a disabled button points to as its description: why it cannot be pressed. */
async function shownReason(page: Page, button: Locator): Promise<string | null> {
  const id = await button.getAttribute("aria-describedby");
  if (!id) return null;
  const reason = page.locator(`[id="${id}"]`);
  return (await reason.isVisible()) ? reason.textContent() : null;
}

/** Picks the photos and presses the one upload action, named with how many go. */
async function uploadPhotos(page: Page, files: string[] | { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByLabel("Seleccionar fotos").setInputFiles(files);
  const label = files.length === 1 ? "Subir 1 foto" : `Subir ${files.length} fotos`;
  await page.getByRole("button", { name: label }).click();
}

/** A photographer assigned to `event`, signed in on the photographer login and landed on the upload screen. */
async function signInAsPhotographer(page: Page, event: EventDto, email: string): Promise<void> {
  await signIn(page, `${url()}/photographer-login`, email, "secreto1");
  await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
  expect(await page.getByLabel("Evento").inputValue()).toBe(String(event.id));
}

describe("upload screen", () => {
  it("offers one action, says why it cannot be pressed, and follows this upload against a fixed total", async () => {
    const event = await newEvent("Carrera de la Subida");
    const page = await openUploadScreen(laptop);
    expect(await page.getByLabel("Evento").inputValue()).toBe(String(event.id));

    // Nothing chosen: one action, disabled, with the reason in plain sight (not in a tooltip).
    const action = page.getByRole("button", { name: "Subir fotos" });
    expect(await action.isDisabled()).toBe(true);
    expect(await shownReason(page, action)).toBe(messages.selectPhoto);
    for (const gone of ["Forzar subida", "Subida rápida", "Subir por lotes"]) {
      expect(await page.getByRole("button", { name: gone }).count()).toBe(0);
    }
    await page.getByLabel("Seleccionar fotos").setInputFiles([jpeg("prueba-11.jpg", await makeBibPhoto("11"))]);
    await page.getByLabel("Evento").selectOption("");
    const one = page.getByRole("button", { name: "Subir 1 foto" });
    expect(await one.isDisabled()).toBe(true);
    expect(await shownReason(page, one)).toBe(messages.selectEvent);
    await page.getByRole("button", { name: "Quitar prueba-11.jpg" }).click();
    await page.getByLabel("Evento").selectOption(String(event.id));
    await myUploads(page).getByText("Aún no has subido fotos").waitFor();
    // The instructions say how many go at once on this device.
    await page.getByText("5 fotos a la vez", { exact: false }).waitFor();

    // A ZIP refused a moment ago is no longer news once photos are on their way.
    await zipCard(page)
      .getByLabel("Archivo ZIP")
      .setInputFiles({ name: "fotos.rar", mimeType: "application/x-rar", buffer: Buffer.from("Rar!") });
    await zipCard(page).getByText(messages.zipInvalidName).waitFor();

    const seen = await recordTexts(page, progressTexts);
    await uploadPhotos(page, [
      await onDisk("meta-8101.jpg", await makeBibPhoto("8101")),
      await onDisk("meta-8102.jpg", await makeBibPhoto("8102")),
      await onDisk("grande-8103.jpg", await makeBigBibPhoto("8103")),
    ]);
    await zipCard(page).getByText(messages.zipInvalidName).waitFor({ state: "detached" });
    const done = finishedUpload(page);
    await done.waitFor({ timeout: 120_000 });
    await done.getByText("3 de 3 fotos listas").waitFor();
    await done.getByText("3 fotos procesadas: ya se encuentran por dorsal.").waitFor();
    // Spec §4: what went is cleared from the selection.
    expect(await page.getByText("fotos seleccionadas").count()).toBe(0);

    // What went by: the upload's own counts, out of the 3 chosen from the first moment to the last,
    // 'Subidas…; procesando…' while processing, and never a success announced before processing.
    const texts = await seen();
    expect(texts.filter((text) => text.startsWith("Subiendo")).length).toBeGreaterThan(0);
    expect(texts).toContain("Subidas 3 fotos; procesando…");
    expect(texts.filter((text) => !/ de 3 fotos|^Subidas 3 fotos/.test(text))).toEqual([]);

    // The history lists the upload, finished.
    const history = myUploads(page).getByRole("listitem");
    expect(await history.count()).toBe(1);
    await history.getByText("3 procesadas").waitFor();
    await history.getByText("Terminada").waitFor();
    await wholePage(page, "/tmp/upload-admin-1366.png");

    const found = (await admin().get<SearchResponse>(`/api/photos/search?eventId=${event.id}&dorsalNumber=8103`)).body;
    expect(found.photos.map((photo) => photo.originalFilename)).toEqual(["grande-8103.jpg"]);

    await done.getByRole("link", { name: "Revisar dorsales" }).click();
    await page.waitForURL(`${url()}/events/${event.id}/dorsales`);
    await page.getByRole("heading", { name: "Revisión de Dorsales" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("reports photos the event already had as such, and an admin removes a copy from the bib review", async () => {
    const event = await newEvent("Carrera de las repetidas");
    const page = await openUploadScreen(phone);
    const first = await makeBibPhoto("8601");
    const second = await makeBibPhoto("8602");
    await uploadPhotos(page, [jpeg("meta-8601.jpg", first), jpeg("meta-8602.jpg", second)]);
    await finishedUpload(page).waitFor({ timeout: 120_000 });

    // The same two photos under other names, and a new one.
    await uploadPhotos(page, [
      jpeg("otra-8601.jpg", first),
      jpeg("otra-8602.jpg", second),
      jpeg("nueva-8603.jpg", await makeBibPhoto("8603")),
    ]);
    const done = finishedUpload(page);
    await done.waitFor({ timeout: 120_000 });
    await done.getByText("3 de 3 fotos listas").waitFor();
    await done.getByText("1 foto procesada: ya se encuentra por dorsal.").waitFor();
    await done.getByText("2 fotos ya estaban en el evento: no se publican de nuevo.").waitFor();
    const named = done.getByRole("list", { name: "Fotos que ya estaban en el evento" }).getByRole("listitem");
    expect((await named.allTextContents()).sort()).toEqual([
      "otra-8601.jpg: igual a meta-8601.jpg",
      "otra-8602.jpg: igual a meta-8602.jpg",
    ]);
    await myUploads(page).getByText("1 procesada · 2 ya estaban en el evento").waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await wholePage(page, "/tmp/upload-admin-390.png");

    // The event counts them apart: none is left pending.
    const counts = (await admin().get<EventDto>(`/api/events/${event.id}`)).body;
    expect(counts).toMatchObject({ totalPhotos: 5, photoCount: 3, duplicatePhotos: 2, failedPhotos: 0 });

    await done.getByRole("link", { name: "Revisar dorsales" }).click();
    await page.waitForURL(`${url()}/events/${event.id}/dorsales`);
    await page.getByText("2 fotos subidas ya estaban en el evento", { exact: false }).waitFor();
    expect(await page.getByText("se están procesando todavía", { exact: false }).count()).toBe(0);
    await page.getByRole("tab", { name: /Todas/ }).click();
    const copy = page.getByTestId("photo-card").filter({ hasText: "otra-8601.jpg" });
    await copy.getByText("Repetida", { exact: true }).waitFor();
    await copy.getByText("Igual a «meta-8601.jpg», que ya está en el evento.", { exact: false }).waitFor();
    // It shows the photo it copies, and promises no processing that will never come.
    await copy.scrollIntoViewIfNeeded();
    await expect
      .poll(() => copy.locator("img").evaluate((image: { naturalWidth: number }) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await page.getByText("Vista previa no disponible").count()).toBe(0);
    expect(await page.getByText("Podrás corregir los dorsales", { exact: false }).count()).toBe(0);

    await copy.getByRole("button", { name: "Quitar la copia otra-8601.jpg" }).click();
    const confirm = page.getByRole("alertdialog", { name: "¿Quitar la foto repetida?" });
    await confirm.getByText("La foto «meta-8601.jpg» sigue en el evento con sus dorsales.", { exact: false }).waitFor();
    await animationsDone(page);
    await page.screenshot({ path: "/tmp/upload-duplicate-confirm-390.png" });
    await confirm.getByRole("button", { name: "Quitar", exact: true }).click();
    await copy.waitFor({ state: "detached" });
    await page.getByText("Foto repetida quitada").waitFor();
    expect(await page.getByTestId("photo-card").filter({ hasText: "otra-8602.jpg" }).count()).toBe(1);
    expect((await admin().get<EventDto>(`/api/events/${event.id}`)).body).toMatchObject({
      totalPhotos: 4,
      photoCount: 3,
      duplicatePhotos: 1,
    });
    // The events list counts the copy apart too, instead of leaving the event short of 'processed'.
    await page.goto(`${url()}/events`);
    await page.getByText("3 de 3 fotos procesadas · 1 repetida").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("shows a photographer their own uploads and this upload's progress, not the whole event's", async () => {
    const event = await newEvent("Carrera del fotógrafo");
    // The event already has photos someone else uploaded.
    const form = new FormData();
    form.append("eventId", String(event.id));
    for (const bib of ["8701", "8702"]) {
      form.append("photos", new Blob([await makeBibPhoto(bib)], { type: "image/jpeg" }), `admin-${bib}.jpg`);
    }
    expect((await admin().post("/api/photos/upload", form)).status).toBe(200);
    const email = "fotografa.subidas@dorsal.test";
    const created = await admin().post<{ user: PublicUser }>("/api/users", {
      name: "Fotógrafa Subidas",
      email,
      password: "secreto1",
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    // Someone else's upload of the same event, through the screen's own API.
    const adminUpload = await admin().post("/api/photos/my-uploads", { eventId: event.id, fileCount: 1 });
    expect(adminUpload.status).toBe(201);

    const page = await browser.openPage(laptop);
    await signInAsPhotographer(page, event, email);
    await myUploads(page).getByText("Aún no has subido fotos").waitFor();
    await uploadPhotos(page, [jpeg("foto-8703.jpg", await makeBibPhoto("8703"))]);
    const done = finishedUpload(page);
    await done.waitFor({ timeout: 120_000 });
    await done.getByText("1 de 1 foto lista").waitFor();
    // The bib review is the organizer's: a photographer is not sent there.
    expect(await done.getByRole("link", { name: "Revisar dorsales" }).count()).toBe(0);
    const history = myUploads(page).getByRole("listitem");
    expect(await history.count()).toBe(1);
    await history.getByText("1 procesada").waitFor();
    await wholePage(page, "/tmp/upload-photographer-1366.png");

    await browser.closePage();
    const onPhone = await browser.openPage(phone);
    await signInAsPhotographer(onPhone, event, email);
    await uploadPhotos(onPhone, [jpeg("celular-8704.jpg", await makeBibPhoto("8704"))]);
    await finishedUpload(onPhone).waitFor({ timeout: 120_000 });
    await finishedUpload(onPhone).getByText("1 de 1 foto lista").waitFor();
    await waitFor(
      async () => ((await myUploads(onPhone).getByRole("listitem").count()) === 2 ? true : undefined),
      10_000,
      "both of the photographer's uploads listed",
    );
    expect(await onPhone.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await wholePage(onPhone, "/tmp/upload-photographer-390.png");

    // What the server lists for them is theirs alone.
    const login = await apiClient(url()).post<{ token: string }>("/api/auth/login", { email, password: "secreto1" });
    const own = await apiClient(url(), login.body.token).get<{ uploads: { eventId: number }[] }>(
      "/api/photos/my-uploads",
    );
    expect(own.body.uploads).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });

  it("cancels an upload ('Subida cancelada') and keeps the photos selected", async () => {
    const event = await newEvent("Carrera cancelada");
    const page = await openUploadScreen(desktop);
    // Holds the signing call so the upload is still running when Cancelar is pressed.
    await page.route("**/api/photos/uploads", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue().catch(() => undefined);
    });
    await page
      .getByLabel("Seleccionar fotos")
      .setInputFiles([jpeg("c1.jpg", await makeBibPhoto("21")), jpeg("c2.jpg", await makeBibPhoto("22"))]);
    await page.getByRole("button", { name: "Subir 2 fotos" }).click();
    await page.getByRole("button", { name: "Cancelar" }).click();
    await page.getByText("Subida cancelada").waitFor();
    await page.getByText("2 fotos seleccionadas").waitFor();
    await page.waitForTimeout(4000);
    // The held requests were answered after the cancel, but nothing reached storage.
    expect((await photosOf(event.id)).filter((photo) => photo.processingStatus !== "pending")).toEqual([]);
  });

  it("resumes a multipart upload after the connection drops, from the parts already stored", async () => {
    const event = await newEvent("Carrera con corte de red");
    const page = await openUploadScreen(desktop);
    const partRequests: string[] = [];
    const dropPartTwo = async (route: Parameters<Parameters<Page["route"]>[1]>[0]) => {
      const url = new URL(route.request().url());
      partRequests.push(`${route.request().method()} ${url.searchParams.get("partNumber") ?? "-"}`);
      if (url.searchParams.get("partNumber") === "2") return route.abort("connectionreset");
      return route.continue();
    };
    await page.route("**/dorsal-originals/**", dropPartTwo);

    await page
      .getByLabel("Seleccionar fotos")
      .setInputFiles(await onDisk("corte-8201.jpg", await makeBigBibPhoto("8201")));
    await page.getByRole("button", { name: "Subir 1 foto" }).click();
    await page.getByText("Error de red durante la subida").waitFor({ timeout: 60_000 });
    expect(partRequests.filter((request) => request === "PUT 1")).toHaveLength(1);

    await page.unroute("**/dorsal-originals/**", dropPartTwo);
    await page.route("**/dorsal-originals/**", async (route) => {
      const url = new URL(route.request().url());
      partRequests.push(`${route.request().method()} ${url.searchParams.get("partNumber") ?? "-"}`);
      return route.continue();
    });
    await page.getByRole("button", { name: "Reanudar subida" }).click();
    await finishedUpload(page).waitFor({ timeout: 120_000 });
    // Resumed, not restarted: the store was asked which parts it has, and part 1 was not sent again.
    expect(partRequests).toContain("GET -");
    expect(partRequests.filter((request) => request === "PUT 1")).toHaveLength(1);
    await finishedUpload(page).getByText("1 de 1 foto lista").waitFor();
    const photos = await photosOf(event.id);
    expect(photos.filter((photo) => photo.processingStatus === "successful").map((p) => p.detectedDorsals)).toEqual([
      ["8201"],
    ]);
  });

  it("resumes after the tab is closed mid-upload: the photo is picked again and only the missing parts go", async () => {
    const event = await newEvent("Carrera con pestaña cerrada");
    const first = await openUploadScreen(desktop);
    // A file on disk keeps its name, size and date, which is how Uppy recognises it when picked again.
    const file = await onDisk("cerrada-8301.jpg", await makeBigBibPhoto("8301"));
    const firstTab: string[] = [];
    await first.route("**/dorsal-originals/**", async (route) => {
      const partNumber = new URL(route.request().url()).searchParams.get("partNumber");
      firstTab.push(`${route.request().method()} ${partNumber ?? "-"}`);
      // Part 2 never gets an answer: the tab is closed while it is on its way.
      if (partNumber !== "2") await route.continue();
    });
    await first.getByLabel("Seleccionar fotos").setInputFiles(file);
    await first.getByRole("button", { name: "Subir 1 foto" }).click();
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
    await finishedUpload(second).waitFor({ timeout: 120_000 });

    expect(firstTab.filter((request) => request.startsWith("POST"))).toEqual(["POST -"]);
    expect(secondTab).toContain("GET -");
    expect(secondTab.filter((request) => request === "PUT 1")).toEqual([]);
    expect(secondTab.filter((request) => request.startsWith("POST"))).toEqual(["POST -"]);
    await finishedUpload(second).getByText("1 de 1 foto lista").waitFor();
    expect((await photosOf(event.id)).map((photo) => [photo.processingStatus, photo.detectedDorsals])).toEqual([
      ["successful", ["8301"]],
    ]);
  });

  it("on a phone: gallery and camera buttons, the originals choice explained, 2 at a time, compression", async () => {
    const event = await newEvent("Carrera desde el celular");
    const page = await openSignedIn(phone);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setUserAgentOverride", { userAgent: androidChrome });
    await goToUpload(page);

    await page.getByRole("button", { name: "Galería", exact: true }).waitFor();
    await page.getByRole("button", { name: "Cámara", exact: true }).waitFor();
    expect(await page.getByLabel("Elegir fotos de la galería").getAttribute("accept")).toBe("image/*");
    const camera = page.getByLabel("Tomar foto con la cámara");
    expect(await camera.getAttribute("capture")).toBe("environment");
    expect(await camera.getAttribute("accept")).toBe("image/*");
    await page.getByText("Enviar las fotos originales, sin comprimir").waitFor();
    await page.getByText("el celular reduce cada foto grande a 1.920 px", { exact: false }).waitFor();
    await page.getByText("2 fotos a la vez", { exact: false }).waitFor();

    // A 17 MP, 12.7 MiB photo is compressed to 1920 px before it leaves the phone: one small PUT, no multipart.
    const sent: string[] = [];
    await page.route("**/dorsal-originals/**", async (route) => {
      sent.push(`${route.request().method()} ${new URL(route.request().url()).searchParams.get("partNumber") ?? "-"}`);
      await route.continue();
    });
    await page
      .getByLabel("Elegir fotos de la galería")
      .setInputFiles(await onDisk("cel-8401.jpg", await makeBigBibPhoto("8401")));
    await page.getByRole("button", { name: "Subir 1 foto" }).click();
    await finishedUpload(page).getByText("1 de 1 foto lista").waitFor({ timeout: 120_000 });
    expect(sent).toEqual(["PUT -"]);
    const [photo] = await photosOf(event.id);
    expect(photo).toMatchObject({ originalFilename: "cel-8401.jpg", detectedDorsals: ["8401"] });
    expect(pageErrors).toEqual([]);
  });

  it("the mobile diagnostic (/mobile-test) posts photos with the event id and shows the answer", async () => {
    const event = await newEvent("Carrera de diagnóstico");
    const page = await openUploadScreen(phone);
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
