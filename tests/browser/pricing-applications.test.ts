import type { EventDto, EventPricingDto, PublicUser } from "@dorsal/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, signInAsAdmin, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 5 through the screens: the dashboard's real captions, an organizer pricing an event, a
 * visitor applying at /soy-fotografo, and the organizer approving the application.
 */

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let admin: ReturnType<typeof apiClient>;
let event: EventDto;

const { desktop, phone } = viewports;

beforeAll(async () => {
  dorsal = await startDorsal();
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
  it("lets an organizer set an event's prices, showing each tier's savings", async () => {
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    await page.goto(`${dorsal.url}/event-pricing`);
    await page.getByRole("heading", { name: "Precios por evento" }).waitFor();
    // The newest event is chosen and starts from spec §9's defaults.
    await page.getByText("Valores predeterminados").waitFor();
    expect(await page.getByLabel("Evento", { exact: true }).inputValue()).toBe(String(event.id));
    const tiers = page.getByTestId("tier-savings");
    await tiers.nth(0).getByText("Ahorro: $ 2.000 COP por foto (20%)").waitFor();
    await tiers.nth(2).getByText("Ahorro: $ 5.000 COP por foto (50%)").waitFor();

    await page.getByLabel("Precio base por foto").fill("12000");
    await page.getByLabel("Precio por foto del nivel 2").fill("9000");
    await tiers.nth(0).getByText("Ahorro: $ 3.000 COP por foto (25%)").waitFor();
    await tiers.nth(0).getByText("3 fotos: $ 27.000 COP").waitFor();

    // A tier dearer than the one before it is refused before anything is sent.
    await page.getByLabel("Precio por foto del nivel 3").fill("10000");
    await page.getByRole("button", { name: "Guardar precios" }).click();
    await page.getByText("No puede ser mayor que el precio del nivel anterior").waitFor();
    await page.getByLabel("Precio por foto del nivel 3").fill("7000");
    await page.getByRole("button", { name: "Guardar precios" }).click();
    await page.getByText("Configuración de precios guardada").waitFor();
    await page.getByText(/^Guardado el /).waitFor();

    const stored = await admin.get<EventPricingDto>(`/api/events/${event.id}/pricing`);
    expect(stored.body).toMatchObject({ basePrice: 12000, tier2Price: 9000, tier3Price: 7000, configured: true });

    // A reload shows what was saved.
    await page.reload();
    await page.getByText(/^Guardado el /).waitFor();
    expect(await page.getByLabel("Precio base por foto").inputValue()).toBe("12000");
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
    const page = await browser.openPage(desktop);
    await signInAsAdmin(page, dorsal);
    await page.goto(`${dorsal.url}/photographer-applications`);
    await page.getByRole("heading", { name: "Aplicaciones de fotógrafos" }).waitFor();
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
