import type { EventDto } from "@dorsal/shared";
import { adminToken, apiClient } from "./support/api";
import { createBrowserHarness, signInAsAdmin, viewports } from "./support/browser";
import { startDorsal } from "./support/server";

const dorsal = await startDorsal();
const browser = createBrowserHarness();
try {
  await browser.launch();
  const admin = apiClient(dorsal.url, await adminToken(dorsal));
  const event = (await admin.post<EventDto>("/api/events", { name: "Maratón X", date: "2026-07-26" })).body;
  const page = await browser.openPage(viewports.desktop);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dorsal.url });
  const issued: unknown[] = [];
  await page.route("**/api/admin/download-codes?**", (route) => route.fulfill({ json: issued }));
  await page.route("**/api/admin/generate-download-code", async (route) => {
    const body = route.request().postDataJSON();
    const result = { code: "AB12CD34", dorsalNumber: body.dorsalNumber, eventId: event.id, eventName: event.name, expiresAt: new Date(Date.now() + body.expiresInDays * 864e5).toISOString(), maxDownloads: body.maxDownloads };
    issued.push({ ...result, isUsed: false, usedAt: null, downloadCount: 0, createdAt: new Date().toISOString() });
    await route.fulfill({ json: result });
  });
  await page.route("**/api/events/*/athlete-access", (route) => route.fulfill({ json: { ...event, requiresAthleteLogin: true } }));
  await signInAsAdmin(page, dorsal);
  await page.goto(`${dorsal.url}/admin-download-codes`);
  await page.getByRole("heading", { name: "Generar Códigos de Descarga" }).waitFor();
  await page.getByText("No hay códigos para este evento").waitFor();
  await page.getByRole("button", { name: "Generar código" }).click();
  await page.getByText("Campos requeridos").waitFor();
  await page.getByLabel("Número de dorsal").fill("12a3");
  console.log("dorsal value", await page.getByLabel("Número de dorsal").inputValue());
  await page.getByLabel("Descargas máximas").selectOption("3");
  await page.getByRole("button", { name: "Generar código" }).click();
  await page.getByText("Código generado exitosamente").waitFor();
  await page.getByTestId("issued-code-row").getByText("0 de 3").waitFor();
  await page.getByRole("button", { name: "Copiar mensaje" }).click();
  await page.getByRole("button", { name: "Mensaje copiado" }).waitFor();
  console.log(await page.evaluate(() => navigator.clipboard.readText()));
  await page.screenshot({ path: "/tmp/smoke/codes.png", fullPage: true });
  await page.goto(`${dorsal.url}/events`);
  await page.getByText("Los deportistas con cuenta").first().waitFor();
  await page.screenshot({ path: "/tmp/smoke/events.png", fullPage: true });
  await page.getByRole("listitem").filter({ hasText: event.name }).getByText("Acceso deportistas", { exact: true }).click();
  await page.getByText("Acceso deportistas activado").waitFor();
  await browser.closePage();

  const visitor = await browser.openPage(viewports.phone);
  await visitor.route("**/api/auth/athlete-register", async (route) => {
    const body = route.request().postDataJSON();
    await route.fulfill({ json: { success: true, token: "t", user: { id: "u1", email: body.email, name: body.name, role: "athlete", assignedEventId: null, createdAt: new Date().toISOString(), lastLogin: null } } });
  });
  await visitor.goto(`${dorsal.url}/athlete-login?returnTo=/search%3Fx%3D1`);
  await visitor.getByRole("heading", { name: "Acceso deportistas" }).waitFor();
  await visitor.screenshot({ path: "/tmp/smoke/athlete.png", fullPage: true });
  await visitor.getByRole("tab", { name: "Crear cuenta" }).click();
  await visitor.getByRole("button", { name: "Crear cuenta" }).click();
  await visitor.getByText("El nombre es obligatorio").waitFor();
  await visitor.screenshot({ path: "/tmp/smoke/athlete-errors.png", fullPage: true });
  await visitor.getByLabel("Nombre completo").fill("Laura Gómez");
  await visitor.getByLabel("Correo electrónico").fill("laura@x.co");
  await visitor.getByLabel("Contraseña").fill("secreto1");
  await visitor.getByRole("button", { name: "Crear cuenta" }).click();
  await visitor.waitForURL(`${dorsal.url}/search?x=1`);
  console.log("landed", visitor.url(), "errors", browser.pageErrors);
} finally {
  await browser.close();
  await dorsal.stop();
}
