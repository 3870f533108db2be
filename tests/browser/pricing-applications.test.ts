import { type EventDto, type EventPricingDto, type PublicUser, pricingMessages } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, type SignedInTab, signedInTab, signInAsAdmin, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 5 through the screens: the dashboard's real captions, an organizer pricing an event, a
 * visitor applying at /soy-fotografo, and the organizer approving the application. Issue 17:
 * discounts are named by when they apply, and an error goes as soon as its cause does. Issue 22:
 * prices are in pesos only, the one currency the payment gateway charges.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;

const { desktop, phone } = viewports;
/** The desktop size, for the screenshots a person looks at. */
const wide = { width: 1366, height: 900 };

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  admin = apiClient(dorsal.url, await adminToken(dorsal));
  event = (await admin.post<EventDto>("/api/events", { name: "Carrera de la Mujer", date: "2026-09-13" })).body;
});

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

describe("dashboard captions", () => {
  it("compares each figure with a real one instead of the spec's fixed texts", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    const card = (label: string) => page.getByTestId("stat-card").filter({ hasText: label });
    await card("Eventos Activos").getByText("+1 este mes").waitFor();
    await card("Fotos Procesadas").getByText("+0 hoy").waitFor();
    await card("Dorsales Detectados").getByText("aún no hay fotos procesadas").waitFor();
    await card("Ventas del Mes").getByText("sin ventas el mes anterior").waitFor();
    expect(await page.getByText("precisión OCR").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe("event pricing", () => {
  // By keyboard: the previous save's toast sits over the button and pauses while the pointer is on it.
  const save = (page: Page) => page.getByRole("button", { name: "Guardar precios" }).press("Enter");
  const field = (page: Page, label: string) => page.getByLabel(label);

  it("lets an organizer set an event's prices, showing each discount's savings", async () => {
    const page = await browser.openPage(desktop, { storageState: adminTab });
    await page.goto(`${dorsal.url}/event-pricing`);
    await page.getByRole("heading", { name: "Precios por evento", level: 1 }).waitFor();
    // The newest event is chosen and starts from spec §9's defaults.
    await page.getByText("Valores predeterminados").waitFor();
    expect(await page.getByLabel("Evento", { exact: true }).inputValue()).toBe(String(event.id));
    // Discounts are named by when they apply, never by the storage's 'tier 2/3/4'.
    const tierRows = page.getByTestId("pricing-tier");
    await tierRows.nth(0).getByText("Desde 3 fotos", { exact: true }).waitFor();
    await tierRows.nth(2).getByText("Desde 10 fotos", { exact: true }).waitFor();
    expect(await page.getByText(/Nivel \d/).count()).toBe(0);
    const tiers = page.getByTestId("tier-savings");
    await tiers.nth(0).getByText("Ahorro: $ 2.000 COP por foto (20%)").waitFor();
    await tiers.nth(2).getByText("Ahorro: $ 5.000 COP por foto (50%)").waitFor();
    await page.getByText("Mínimo $ 1.000 COP, en múltiplos de 1.000.").waitFor();

    await field(page, "Precio base por foto").fill("12000");
    await field(page, "Precio por foto del descuento 1").fill("9000");
    await tiers.nth(0).getByText("Ahorro: $ 3.000 COP por foto (25%)").waitFor();
    await tiers.nth(0).getByText("3 fotos: $ 27.000 COP").waitFor();
    await field(page, "Fotos mínimas del descuento 1").fill("4");
    await tierRows.nth(0).getByText("Desde 4 fotos", { exact: true }).waitFor();
    await field(page, "Fotos mínimas del descuento 1").fill("3");

    // A discount dearer than the one before it is refused before anything is sent.
    await field(page, "Precio por foto del descuento 2").fill("10000");
    await save(page);
    await page.getByText("No puede ser mayor que el precio del descuento anterior").waitFor();
    await field(page, "Precio por foto del descuento 2").fill("7000");
    await save(page);
    await page.getByText("Configuración de precios guardada").waitFor();
    await page.getByText(/^Guardado el /).waitFor();

    const stored = await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`);
    expect(stored.body).toMatchObject({ basePrice: 12000, tier2Price: 9000, tier3Price: 7000, configured: true });

    // A discount above the base price is an error on that field as it is typed, never a negative saving.
    await field(page, "Precio por foto del descuento 1").fill("13000");
    await tierRows.nth(0).getByText("No puede ser mayor que el precio base").waitFor();
    expect(await page.getByText(/Ahorro: \$ -/).count()).toBe(0);
    // Fixed from the other side (a higher base price): the error goes, and nothing stale is left after saving.
    await field(page, "Precio base por foto").fill("14000");
    await tierRows.nth(0).getByText("No puede ser mayor que el precio base").waitFor({ state: "detached" });
    await field(page, "Precio por foto del descuento 1").fill("12000");
    await field(page, "Precio base por foto").fill("11000");
    await save(page);
    await tierRows.nth(0).getByText("No puede ser mayor que el precio base").waitFor();
    await field(page, "Precio base por foto").fill("15000");
    await save(page);
    await expect
      .poll(async () => (await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body.basePrice)
      .toBe(15000);
    await page.getByText("Configuración de precios guardada").first().waitFor();
    expect(await page.locator("[data-part=error-text]").count()).toBe(0);

    // A reload shows what was saved.
    await page.reload();
    await page.getByText(/^Guardado el /).waitFor();
    expect(await field(page, "Precio base por foto").inputValue()).toBe("15000");
    expect(pageErrors).toEqual([]);
  });

  it("prices in pesos only: the form shows the currency as text, and the API refuses any other", async () => {
    const page = await browser.openPage(wide, { storageState: adminTab });
    await page.goto(`${dorsal.url}/event-pricing`);
    await page.getByText(/^Guardado el /).waitFor();
    const currency = page.getByRole("group", { name: "Moneda" });
    await currency.getByText("Pesos colombianos (COP)", { exact: true }).waitFor();
    await currency.getByText("La pasarela de pagos cobra en pesos.", { exact: true }).waitFor();
    // Nothing to choose: the event picker above the form is the page's only select.
    expect(await page.getByRole("form", { name: "Configuración de precios" }).locator("select").count()).toBe(0);
    expect(await page.getByRole("combobox").count()).toBe(1);
    await page.getByTestId("tier-savings").nth(0).getByText("Ahorro: $ 3.000 COP por foto (20%)").waitFor();
    await page.screenshot({ path: "/tmp/pricing-desktop-cop.png", fullPage: true });

    // The server refuses another currency with the reason, and keeps what was saved.
    const stored = (await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body;
    const { eventId: _eventId, configured: _configured, updatedAt: _updatedAt, ...saved } = stored;
    for (const other of ["USD", "EUR"]) {
      const refused = await admin.post<{ error: string }>(`/api/events/${event.id}/pricing`, {
        ...saved,
        currency: other,
      });
      expect(refused).toMatchObject({ status: 400, body: { error: pricingMessages.currency } });
    }
    expect((await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body).toEqual(stored);
    expect(pageErrors).toEqual([]);
  });

  it("asks for prices in pesos for an event whose pricing was saved in dollars before", async () => {
    const page = await browser.openPage(wide);
    // The API no longer stores dollars (sales.test.ts writes such an item into the table and checks
    // the server serves it): here the screen is handed one as the server would serve it.
    const stored = (await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body;
    const inDollars = { ...stored, currency: "USD", basePrice: 5, tier2Price: 4.5, tier3Price: 4, tier4Price: 3.75 };
    const pricingPath = `**/api/events/${event.id}/pricing`;
    await page.route(pricingPath, (route) =>
      route.request().method() === "GET" ? route.fulfill({ json: inDollars }) : route.fallback(),
    );
    await signInAsAdmin(page, dorsal);
    await page.goto(`${dorsal.url}/event-pricing`);
    const notice = page.getByText("Este evento tiene precios guardados en USD (precio base: 5 USD)");
    await notice.waitFor();
    await page.getByRole("group", { name: "Moneda" }).getByText("Pesos colombianos (COP)", { exact: true }).waitFor();
    // Dollar figures are not pesos: the prices start blank, the rest of the pricing as it was.
    for (const label of [
      "Precio base por foto",
      "Precio por foto del descuento 1",
      "Precio por foto del descuento 3",
    ]) {
      expect(await field(page, label).inputValue()).toBe("");
    }
    expect(await field(page, "Fotos mínimas del descuento 1").inputValue()).toBe("3");
    await page.screenshot({ path: "/tmp/pricing-desktop-legacy.png", fullPage: true });
    await page.unroute(pricingPath);

    await save(page);
    await page.getByText(pricingMessages.notANumber, { exact: true }).first().waitFor();
    await field(page, "Precio base por foto").fill("20000");
    await field(page, "Precio por foto del descuento 1").fill("16000");
    await field(page, "Precio por foto del descuento 2").fill("12000");
    await field(page, "Precio por foto del descuento 3").fill("10000");
    await save(page);
    await page.getByText("Configuración de precios guardada").waitFor();
    await notice.waitFor({ state: "detached" });
    expect((await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body).toMatchObject({
      currency: "COP",
      basePrice: 20000,
      tier2Price: 16000,
      tier4Price: 10000,
    });
    expect(pageErrors).toEqual([]);
  });

  it("fits a phone", async () => {
    const page = await browser.openPage(phone, { storageState: adminTab });
    await page.goto(`${dorsal.url}/event-pricing`);
    await page.getByTestId("pricing-tier").nth(0).getByText("Desde 3 fotos", { exact: true }).waitFor();
    await page.getByText("Ahorro: $ 4.000 COP por foto (20%)").waitFor();
    await page.getByRole("group", { name: "Moneda" }).getByText("Pesos colombianos (COP)", { exact: true }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: "/tmp/pricing-phone.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

describe("photographer applications", () => {
  const applicant = { name: "Valentina Ríos", email: "valentina.rios@fotos.test" };

  it("takes a visitor's application at /soy-fotografo and thanks them", async () => {
    const page = await browser.openPage(phone);
    await page.goto(`${dorsal.url}/soy-fotografo`);
    await page.getByRole("heading", { name: "Soy fotógrafo" }).waitFor();

    await page.getByRole("button", { name: "Enviar aplicación" }).click();
    await page.getByText("Ingresa tu nombre completo").waitFor();
    await page.getByText("Selecciona tu nivel de experiencia").waitFor();

    await page.getByLabel("Nombre completo").fill(applicant.name);
    await page.getByLabel("Correo electrónico").fill(applicant.email);
    await page.getByLabel("Teléfono").fill("310 555 1234");
    await page.getByLabel("Ciudad").fill("Cali");
    await page.getByLabel("Experiencia").selectOption("intermediate");
    await page.getByLabel("Disponibilidad").selectOption("flexible");
    await page.getByLabel("Tipo de cámara").selectOption("DSLR");
    await page.getByLabel("Portafolio").fill("https://valentina.example.co");
    await page.getByRole("button", { name: "Enviar aplicación" }).click();

    await page.getByRole("heading", { name: "¡Gracias por tu aplicación!" }).waitFor();
    await page.getByText("2-3 días hábiles").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("lets the organizer approve it and shows the new photographer's credentials once", async () => {
    const page = await browser.openPage(desktop, { storageState: adminTab });
    await page.goto(`${dorsal.url}/photographer-applications`);
    await page.getByRole("heading", { name: "Aplicaciones de fotógrafos", level: 1 }).waitFor();
    await page.getByTestId("application-row").filter({ hasText: applicant.name }).waitFor();

    await page.getByRole("button", { name: `Ver aplicación de ${applicant.name}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("https://valentina.example.co").waitFor();
    await dialog.getByRole("button", { name: "Aprobar y crear cuenta" }).click();
    await dialog.getByText("Selecciona el evento que cubrirá el fotógrafo").waitFor();
    await dialog.getByLabel("Evento asignado").selectOption(String(event.id));
    await dialog.getByRole("button", { name: "Aprobar y crear cuenta" }).click();

    const credentials = page.getByRole("alertdialog");
    await credentials.getByText("Cuenta de fotógrafo creada").waitFor();
    expect(await credentials.getByTestId("credentials-email").textContent()).toBe(applicant.email);
    const password = (await credentials.getByTestId("credentials-password").textContent()) ?? "";
    expect(password).toHaveLength(16);
    await credentials.getByText(event.name).waitFor();
    // The applicant is told by email, without the password, which only this dialog shows.
    await credentials
      .getByTestId("approval-mail")
      .getByText(`Le enviamos un correo a ${applicant.email}`, { exact: false })
      .waitFor();

    // The credentials work: the new photographer signs in, assigned to the chosen event.
    const login = await apiClient(dorsal.url).post<{ user: PublicUser }>("/api/auth/login", {
      email: applicant.email,
      password,
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: "photographer", assignedEventId: event.id });

    await credentials.getByRole("button", { name: "Cerrar" }).click();
    await page.getByText("No hay aplicaciones pendientes").waitFor();
    await page.getByLabel("Estado").selectOption("approved");
    await page
      .getByTestId("application-row")
      .filter({ hasText: "Aprobada" })
      .filter({ hasText: applicant.name })
      .waitFor();
    expect(pageErrors).toEqual([]);
  });
});
