import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import {
  type EventDto,
  type PerformanceStatsDto,
  type PublicUser,
  photoFailureReasons,
  type UploadMetricsDto,
  type UploadResponse,
  type UploadSummaryDto,
} from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { accessibilityViolations, describeViolation } from "../support/accessibility";
import { adminToken, apiClient, sendUploadFile, waitFor } from "../support/api";
import { animationsDone, createBrowserHarness, signIn, signInAsAdmin } from "../support/browser";
import { layoutProblems } from "../support/layout";
import { runtimeS3Client } from "../support/object-store";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 21, item 2: the performance dashboard at /performance-dashboard (spec §2.7), _Rendimiento_
 * in the header and on the dashboard. A fresh runtime says it measured no photo yet; after the
 * organizer uploads two photos (and a broken one fails), the screen shows each stage's count and
 * times, the memory trend, the queue, the organizer's own upload finished 2 of 2, the signed URL
 * cache and the failure's reason. The cleanup asks first and says what it removed; load and
 * cleanup errors are toasts; an SLA alert shows at the top; a photographer never sees the screen.
 */

const screenshots = path.resolve(import.meta.dirname, "../../artifacts/performance");
const desktop = { width: 1366, height: 900 };
const phone = { width: 390, height: 844 };
const brokenFile = "rota-7001.jpg";

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;

beforeAll(async () => {
  await mkdir(screenshots, { recursive: true });
  dorsal = await startDorsal();
  await browser.launch();
  admin = apiClient(dorsal.url, await adminToken(dorsal));
  event = (await admin.post<EventDto>("/api/events", { name: "Media Maratón del Café", date: "2026-09-20" })).body;
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

const scrollWidth = (page: Page) => page.evaluate<number>("document.documentElement.scrollWidth");

/** What layout.test.ts holds every screen to, here for the screen with figures in it. */
async function screenProblems(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await animationsDone(page);
  return [
    ...(await layoutProblems(page)).map(({ selector, problem }) => `${selector}: ${problem}`),
    ...(await accessibilityViolations(page)).map(describeViolation),
  ];
}

/** A broken photo (JPEG magic bytes, then garbage) that the pipeline stores and then refuses. */
async function uploadBrokenPhoto() {
  const form = new FormData();
  form.append("eventId", String(event.id));
  const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), randomBytes(4000)]);
  form.append("photos", new Blob([broken], { type: "image/jpeg" }), brokenFile);
  expect((await admin.post<UploadResponse>("/api/photos/upload", form)).body.uploaded).toBe(1);
  await waitFor(
    async () => ((await admin.get<EventDto>(`/api/events/${event.id}`)).body.failedPhotos === 1 ? true : undefined),
    60_000,
    "the broken photo to fail",
  );
}

/** An upload of 2 files started as the upload screen starts one; its photos are sent by `sendPhotos`. */
async function startUpload(): Promise<UploadSummaryDto> {
  const started = await admin.post<UploadSummaryDto>("/api/photos/my-uploads", { eventId: event.id, fileCount: 2 });
  expect(started.status).toBe(201);
  return started.body;
}

/** Both photos, each registered under the upload, as the upload screen sends them. */
async function sendPhotos(upload: UploadSummaryDto): Promise<void> {
  for (const bib of ["7101", "7102"]) {
    const file = { filename: `meta-${bib}.jpg`, fileKey: `clave-${bib}`, bytes: await makeBibPhoto(bib) };
    expect(await sendUploadFile(admin, { eventId: event.id, uploadId: upload.uploadId, ...file })).toBe(200);
  }
}

async function openScreen(page: Page) {
  await page.goto(`${dorsal.url}/performance-dashboard`);
  await page.getByRole("heading", { name: "Rendimiento", level: 1 }).waitFor();
}

describe("performance screen", () => {
  it("says a fresh runtime measured no photo yet, and is reached from the header and the dashboard", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);

    // Spec §2.3: the dashboard's 'Rendimiento' button; the preflight beside it.
    const main = page.getByRole("main");
    await main.getByRole("link", { name: "Verificación previa" }).click();
    await page.getByRole("heading", { name: "Verificación previa", level: 1 }).waitFor();
    await page.goBack();
    await main.getByRole("link", { name: "Rendimiento" }).click();
    await page.waitForURL(`${dorsal.url}/performance-dashboard`);
    await page.getByRole("heading", { name: "Rendimiento", level: 1 }).waitFor();
    const nav = page.getByRole("navigation", { name: "Administración" });
    expect(await nav.getByRole("link", { name: "Rendimiento" }).getAttribute("aria-current")).toBe("page");

    await page.getByRole("heading", { name: "Aún no hay fotos medidas en la última hora" }).waitFor();
    expect(await page.getByTestId("performance-stage").count()).toBe(0);
    expect(await page.getByRole("region", { name: "Resumen de rendimiento" }).count()).toBe(0);
    // The memory is read on its own: locally, the runtime's own from the start.
    await page.getByTestId("memory-card").waitFor();
    const upload = page.getByTestId("upload-card");
    await upload.getByRole("heading", { name: "Aún no has subido fotos" }).waitFor();
    await page.getByTestId("failures-card").getByRole("heading", { name: "Ninguna foto ha fallado" }).waitFor();
    const queue = page.getByTestId("queue-card");
    await queue.getByText("Pendientes").waitFor();
    // The local queue says what runs and what waits; no photo was processed to average.
    expect(await queue.textContent()).toContain("aún no se ha procesado ninguna foto");
    await page.getByTestId("cache-card").getByText("Tasa de aciertos").waitFor();
    await page.getByText(/^Última actualización: \d/).waitFor();
    await page.screenshot({ path: path.join(screenshots, "vacio-1366.png"), fullPage: true });
    expect(await screenProblems(page)).toEqual([]);

    // The header leads there from any screen.
    await nav.getByRole("link", { name: "Panel" }).click();
    await page.getByRole("heading", { name: "Panel general" }).waitFor();
    await nav.getByRole("link", { name: "Rendimiento" }).click();
    await page.getByRole("heading", { name: "Aún no hay fotos medidas en la última hora" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("shows each stage's photos and times, the memory, the queue and the organizer's upload finished 2 of 2", async () => {
    await uploadBrokenPhoto();
    const started = await startUpload();

    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    await openScreen(page);
    // The organizer's own upload, started and waiting for its photos: followed every 2 s.
    const upload = page.getByTestId("upload-card");
    await upload.getByTestId("upload-state").getByText("En curso").waitFor();
    await upload.getByText("0 de 2 fotos procesadas").waitFor();
    await upload.getByText("se actualiza cada 2 s", { exact: false }).waitFor();
    await sendPhotos(started);
    await upload.getByTestId("upload-state").getByText("Terminada").waitFor({ timeout: 90_000 });
    await upload.getByText("2 de 2 fotos procesadas").waitFor();
    const settled = (await admin.get<UploadMetricsDto>("/api/admin/upload-metrics")).body;
    expect(settled).toMatchObject({ totalPhotos: 2, processedPhotos: 2, successfulPhotos: 2, isActive: false });

    // The hour's figures are read every 30 s; 'Actualizar' reads them now.
    await page.getByRole("button", { name: "Actualizar" }).click();
    const rows = page.getByTestId("performance-stage");
    await rows.first().waitFor();
    const stats = (await admin.get<PerformanceStatsDto>("/api/admin/performance-stats")).body;
    expect(await rows.count()).toBe(4);
    const stageNames = [
      "Copias (web, miniatura, vistas previas)",
      "Lectura (dorsales y caras)",
      "Registro",
      "De la llegada a buscable",
    ];
    for (const [index, name] of stageNames.entries()) {
      const cells = await rows.nth(index).getByRole("cell").allTextContents();
      expect(cells[0]).toBe(name);
      expect(Number(cells[1])).toBeGreaterThanOrEqual(2);
      // Spec §9: under a second in ms, otherwise seconds with one decimal.
      for (const time of cells.slice(2)) expect(time).toMatch(/^(\d+ ms|\d+,\d s)$/);
    }
    const searchable = stats.stages.find((stage) => stage.stage === "searchable");
    expect(await rows.nth(3).getByRole("cell").nth(1).textContent()).toBe(String(searchable?.count));

    // The summary: 2 of the 3 photos processed, the others failed.
    const summary = page.getByRole("region", { name: "Resumen de rendimiento" });
    const card = (label: string) => summary.getByTestId("stat-card").filter({ hasText: label });
    expect(await card("Tasa de éxito").textContent()).toContain("67%");
    expect(await card("Tasa de éxito").textContent()).toContain("2 fotos procesadas en total");
    expect(await card("De la llegada a buscable").textContent()).toMatch(/\d+( ms|,\d s)promedio de la última hora/);
    expect(await card("Memoria máxima").textContent()).toMatch(/\d+ MB/);

    // The memory trend: a chart of the readings, said in words too.
    const chart = page.getByRole("img", { name: /^Memoria de las últimas \d+ lecturas/ });
    await chart.waitFor();
    expect(await chart.locator("rect").count()).toBeGreaterThanOrEqual(stats.memoryTrend.length);
    await page
      .getByTestId("memory-figures")
      .getByText(/^\d+ MB$/)
      .first()
      .waitFor();

    // The queue counts every event's photos; the failed one links to the failed-photos screen.
    const queue = page.getByTestId("queue-card");
    const queueText = (await queue.textContent()) ?? "";
    expect(queueText).toContain("Completadas2");
    expect(queueText).toMatch(/Tiempo medio por foto\d+( ms|,\d s)/);
    await queue.getByRole("link", { name: "1" }).waitFor();

    // The organizer's own latest upload: finished, 2 of 2, in the event it went to.
    await upload.getByText("se actualiza cada 30 s", { exact: false }).waitFor();
    expect(await upload.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    await upload.getByText(event.name).waitFor();
    expect(["meta-7101.jpg", "meta-7102.jpg"]).toContain(settled.lastProcessedPhoto);
    await upload.getByText(settled.lastProcessedPhoto ?? "").waitFor();

    // The signed URL cache, with what its figures cover.
    await page.getByTestId("cache-card").getByRole("heading", { name: "Caché de URLs firmadas" }).waitFor();

    // Failures by reason, and the way to the photos to retry.
    const failures = page.getByTestId("failures-card");
    const reason = failures.getByTestId("failure-reason");
    expect(await reason.count()).toBe(1);
    await reason.getByText(photoFailureReasons.unreadable).waitFor();
    await reason.getByText("1 foto", { exact: true }).waitFor();
    expect(await page.getByTestId("sla-alert").count()).toBe(0);
    await page.screenshot({ path: path.join(screenshots, "cifras-1366.png"), fullPage: true });
    expect(await screenProblems(page)).toEqual([]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(desktop.width);

    await failures.getByRole("link", { name: "Ver fotos con errores" }).click();
    await page.getByRole("heading", { name: "Fotos con errores" }).waitFor();
    await page.getByTestId("failed-photo").filter({ hasText: brokenFile }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("fits a phone without scrolling sideways", async () => {
    const page = await browser.openPage(phone);
    await signInAsAdmin(page, dorsal);
    // The phone menu holds the entry too.
    await page.getByRole("button", { name: "Abrir menú" }).click();
    await page.locator("#admin-mobile-menu").getByRole("link", { name: "Rendimiento" }).click();
    await page.getByRole("heading", { name: "Rendimiento", level: 1 }).waitFor();
    await page.getByTestId("performance-stage").first().waitFor();
    await page.getByTestId("upload-card").getByText("2 de 2 fotos procesadas").waitFor();
    await page.getByRole("img", { name: /^Memoria de las últimas/ }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: path.join(screenshots, "cifras-390.png"), fullPage: true });
    expect(await screenProblems(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("cleans the temporary files only after confirming, and says what it removed", async () => {
    // A download ZIP from long ago, which no link can fetch any more.
    const s3 = await runtimeS3Client(dorsal.dataDir, dorsal.url);
    await s3.send(
      new PutObjectCommand({
        Bucket: "dorsal-originals",
        Key: "descargas/2020-01-01/antigua/fotos.zip",
        Body: Buffer.alloc(1.5 * 1024 * 1024, 1),
        ContentType: "application/zip",
      }),
    );
    s3.destroy();

    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    await openScreen(page);
    const cleanups: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/admin/cleanup-temp") {
        cleanups.push(request.url());
      }
    });

    // By keyboard: the question opens with 'Cancelar' focused, and cancelling does nothing.
    const button = page.getByRole("button", { name: "Limpiar archivos temporales" });
    await button.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "¿Limpiar los archivos temporales?" });
    await dialog.getByText("No se puede deshacer", { exact: false }).waitFor();
    await animationsDone(page);
    expect(await page.evaluate<string | null>("document.activeElement?.textContent ?? null")).toBe("Cancelar");
    await page.screenshot({ path: path.join(screenshots, "limpiar-1366.png") });
    expect(await screenProblems(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    expect(cleanups).toEqual([]);

    await button.click();
    await dialog.getByRole("button", { name: "Limpiar", exact: true }).click();
    await page.getByText("Se eliminó 1 archivo (1,5 MB)", { exact: true }).waitFor();
    expect(await page.getByTestId("cleanup-result").textContent()).toBe(
      "Última limpieza: Se eliminó 1 archivo (1,5 MB).",
    );
    expect(cleanups).toHaveLength(1);

    // Nothing left the second time; and a failure is a toast.
    await button.click();
    await dialog.getByRole("button", { name: "Limpiar", exact: true }).click();
    await page.getByText("No había archivos temporales que eliminar", { exact: true }).waitFor();
    await page.route("**/api/admin/cleanup-temp", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: "El almacenamiento no respondió" }),
      }),
    );
    await button.click();
    await dialog.getByRole("button", { name: "Limpiar", exact: true }).click();
    await page.getByText("Error al limpiar archivos temporales").waitFor();
    await page.getByText("El almacenamiento no respondió").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("says when the figures cannot be read, as a toast and with 'Reintentar', and shows an SLA alert on top", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    let failing = true;
    let alerting = false;
    await page.route("**/api/admin/performance-stats", async (route) => {
      if (failing) {
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ success: false, error: "Servicio no disponible" }),
        });
        return;
      }
      // The server raises the alert from its own measurements (functions' unit tests); here it is
      // added to the real answer, to see how the screen shows one.
      const response = await route.fetch();
      const body = (await response.json()) as PerformanceStatsDto;
      if (alerting) {
        body.alerts = [
          {
            alertType: "searchable_p95",
            severity: "critical",
            message:
              "El 95 % de las fotos de los últimos 5 minutos tardó hasta 134 s en poder buscarse (el objetivo es 60 s)",
            metadata: { p95Ms: 134_000, thresholdMs: 120_000, windowMinutes: 5, photos: 12 },
            timestamp: new Date().toISOString(),
          },
        ];
      }
      await route.fulfill({ response, json: body });
    });
    await openScreen(page);
    const failure = page.getByRole("alert").filter({ hasText: "Error cargando las métricas de rendimiento" });
    await failure.getByText("Servicio no disponible").waitFor();
    // The toast says it too (spec §2.7: metric load errors as toasts).
    await page.getByRole("status").filter({ hasText: "Servicio no disponible" }).waitFor();
    // The other cards are read on their own.
    await page.getByTestId("upload-card").getByText("2 de 2 fotos procesadas").waitFor();

    failing = false;
    alerting = true;
    await failure.getByRole("button", { name: "Reintentar" }).click();
    await page.getByTestId("performance-stage").first().waitFor();
    expect(await failure.count()).toBe(0);
    const alert = page.getByTestId("sla-alert");
    await alert.getByText("Crítico: las fotos tardan más de lo esperado en poder buscarse").waitFor();
    await alert.getByText(/tardó hasta 134 s en poder buscarse/).waitFor();
    // At the top: above the summary.
    const alertBox = await alert.boundingBox();
    const summaryBox = await page.getByRole("region", { name: "Resumen de rendimiento" }).boundingBox();
    expect(alertBox?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(summaryBox?.y ?? 0);
    await page.screenshot({ path: path.join(screenshots, "alerta-1366.png") });
    expect(pageErrors).toEqual([]);
  });

  it("is not there for a photographer, nor for a visitor", async () => {
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Pablo Fotógrafo",
      email: "pablo@dorsal.test",
      password: "secreto1",
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const page = await browser.openPage(desktop);
    await signIn(page, `${dorsal.url}/photographer-login`, "pablo@dorsal.test", "secreto1");
    await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
    await page.goto(`${dorsal.url}/performance-dashboard`);
    await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
    expect(await page.getByRole("heading", { name: "Rendimiento" }).count()).toBe(0);
    // Nor does the API answer a photographer.
    const token = (
      await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
        email: "pablo@dorsal.test",
        password: "secreto1",
      })
    ).body.token;
    const photographer = apiClient(dorsal.url, token);
    for (const endpoint of ["performance-stats", "cache-stats", "async-processing-stats", "upload-metrics"]) {
      expect((await photographer.get(`/api/admin/${endpoint}`)).status).toBe(403);
    }
    expect((await photographer.post("/api/admin/cleanup-temp")).status).toBe(403);
    await browser.closePage();

    const visitor = await browser.openPage(desktop);
    await visitor.goto(`${dorsal.url}/performance-dashboard`);
    await visitor.waitForURL(`${dorsal.url}/`);
    expect(pageErrors).toEqual([]);
  });
});
