import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { CreateSaleResponse, EventDto, PublicUser } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accessibilityViolations, describeViolation } from "../support/accessibility";
import { adminToken, apiClient } from "../support/api";
import { sampleApplication } from "../support/applications";
import { animationsDone, createBrowserHarness, navigateInApp, tabSignedInAs } from "../support/browser";
import { layoutProblems, pageSettled, type RequestTracker, trackRequests } from "../support/layout";
import { chooseOnSandbox } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Issue 17, Deliver 2: every route of spec §2.1, as each role that reaches it, with real data, on
 * a phone and on a laptop. A route fails on anything a person would see as broken (the page
 * scrolling sideways, an element past the screen's edge or out of its card, an oversized image or
 * icon, text cut off) and on any WCAG 2.1 A/AA violation axe-core finds. Every screen is saved to
 * artifacts/layout/ for a person to look at.
 */

const screenshots = path.resolve(import.meta.dirname, "../../artifacts/layout");
const bib = "5173";

let dorsal: RunningDorsal;
const browser = createBrowserHarness();
let event: EventDto;
let freeEvent: EventDto;
let downloadPath: string;
const sessions = new Map<Role, PublicUser & { token: string }>();

type Role = "visitante" | "admin" | "fotografo" | "deportista" | "usuario";

interface Screen {
  /** Names the screenshot and the test. */
  name: string;
  /** The path to open; a function when it depends on seeded data. */
  path: () => string;
  /** Where the app should end up, when it redirects. */
  landsOn?: string;
  /** What a person does on the screen before it is checked (opening a dialog, a menu). */
  open?: (page: Page) => Promise<void>;
  /** Only at these widths (a menu that exists on phones only). */
  widths?: number[];
  /**
   * Loaded afresh: its route renders the same page as the screen before it, which the app would
   * re-render in place, leaving nothing new to wait for.
   */
  reload?: true;
}

const results = () => `/search?eventId=${event.id}&dorsal=${bib}`;
/** Opens the dialog behind the first visible button so named, as a person would. */
const dialog = (button: string | RegExp) => async (page: Page) => {
  await page.getByRole("button", { name: button }).filter({ visible: true }).first().click();
  await page.getByRole("dialog").or(page.getByRole("alertdialog")).waitFor();
};

const screensByRole: Record<Role, Screen[]> = {
  visitante: [
    { name: "inicio", path: () => "/" },
    { name: "search", path: () => "/search" },
    { name: "search-dorsal", path: results },
    { name: "search-vista-previa", path: results, open: dialog(/^Ver foto/) },
    { name: "search-codigo", path: results, open: dialog("Tengo un código de descarga") },
    { name: "free-photos", path: () => "/free-photos" },
    { name: "download", path: () => downloadPath },
    { name: "download-sin-token", path: () => "/download", landsOn: "/search" },
    { name: "photo-purchase", path: () => `/photo-purchase?dorsal=${bib}&eventId=${event.id}` },
    { name: "photo-purchase-sin-dorsal", path: () => "/photo-purchase" },
    { name: "athlete-login", path: () => "/athlete-login" },
    { name: "soy-fotografo", path: () => "/soy-fotografo" },
    { name: "mobile-test", path: () => "/mobile-test" },
    { name: "admin-login", path: () => "/admin-login" },
    { name: "photographer-login", path: () => "/photographer-login", reload: true },
  ],
  admin: [
    { name: "dashboard", path: () => "/dashboard" },
    {
      name: "dashboard-menu",
      path: () => "/dashboard",
      widths: [390],
      open: async (page) => {
        await page.getByRole("button", { name: "Abrir menú" }).click();
        await page.getByRole("button", { name: "Cerrar menú" }).waitFor();
      },
    },
    { name: "events", path: () => "/events" },
    { name: "events-nuevo", path: () => "/events?new=1" },
    { name: "events-eliminar", path: () => "/events", open: dialog(/^Eliminar evento/) },
    { name: "events-dorsales", path: () => `/events/${event.id}/dorsales` },
    { name: "events-inscritos", path: () => `/events/${event.id}/inscritos` },
    { name: "upload", path: () => "/upload" },
    { name: "bulk-upload", path: () => "/bulk-upload", reload: true },
    { name: "processing", path: () => "/processing" },
    { name: "search", path: () => "/search" },
    { name: "search-dorsal", path: results },
    { name: "analytics", path: () => "/analytics" },
    { name: "admin-sales", path: () => "/admin/sales" },
    { name: "admin-outbox", path: () => "/admin/outbox" },
    { name: "admin-download-codes", path: () => "/admin-download-codes" },
    { name: "event-pricing", path: () => "/event-pricing" },
    { name: "photographer-applications", path: () => "/photographer-applications" },
    { name: "user-management", path: () => "/user-management" },
    { name: "user-management-editar", path: () => "/user-management", open: dialog("Editar Laura Gómez") },
    { name: "settings", path: () => "/settings" },
    { name: "cloud-storage-config", path: () => "/cloud-storage-config" },
    { name: "purchase", path: () => "/purchase" },
    { name: "performance-dashboard", path: () => "/performance-dashboard" },
    {
      name: "performance-dashboard-limpiar",
      path: () => "/performance-dashboard",
      open: dialog("Limpiar archivos temporales"),
    },
    { name: "preflight", path: () => "/preflight" },
    { name: "preflight-dashboard", path: () => "/preflight-dashboard", reload: true },
  ],
  fotografo: [{ name: "upload", path: () => "/upload" }],
  deportista: [
    { name: "search", path: () => "/search" },
    { name: "search-dorsal", path: results },
    { name: "photo-purchase", path: () => `/photo-purchase?dorsal=${bib}&eventId=${event.id}` },
  ],
  usuario: [
    { name: "inicio", path: () => "/" },
    { name: "photo-purchase", path: () => `/photo-purchase?dorsal=${bib}&eventId=${event.id}` },
  ],
};

const viewports = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

/** Signs in over the API as the login screens do, for the session the app keeps in local storage. */
async function signInOverApi(email: string, password: string) {
  const login = await apiClient(dorsal.url).post<{ token: string; user: PublicUser }>("/api/auth/login", {
    email,
    password,
  });
  if (login.status !== 200) throw new Error(`${email} could not sign in: ${login.status}`);
  return { ...login.body.user, token: login.body.token };
}

beforeAll(async () => {
  await rm(screenshots, { recursive: true, force: true });
  await mkdir(screenshots, { recursive: true });
  dorsal = await startDorsal();
  await browser.launch();
  const token = await adminToken(dorsal);
  const admin = apiClient(dorsal.url, token);
  const [paid, free] = await Promise.all([
    seedEventWithBibPhotos(dorsal, token, {
      name: "Media Maratón Internacional de Bogotá",
      bibs: [bib, bib, bib, "42"],
    }),
    seedEventWithBibPhotos(dorsal, token, {
      name: "Carrera Recreativa de Medellín",
      bibs: ["88"],
      freePhotos: true,
    }),
  ]);
  event = paid.event;
  freeEvent = free.event;

  // A paid sale, approved in the payment sandbox: its download link is what the buyer gets.
  const sale = await apiClient(dorsal.url).post<CreateSaleResponse>("/api/sales/create", {
    eventId: event.id,
    photoIds: paid.photoIdsByBib.get(bib)?.slice(0, 2),
    customerName: "Ana Gómez",
    customerEmail: "ana.gomez@example.co",
  });
  if (sale.status !== 201) throw new Error(`sale not created: ${sale.status}`);
  const approved = await chooseOnSandbox(dorsal.url, new URL(sale.body.paymentUrl), "APPROVED");
  const back = new URL(approved.headers.get("location") ?? "");
  downloadPath = `${back.pathname}${back.search}`;

  const code = await admin.post("/api/admin/generate-download-code", {
    eventId: event.id,
    dorsalNumber: "42",
    expiresInDays: 7,
    maxDownloads: 3,
  });
  if (code.status !== 201) throw new Error(`download code not issued: ${code.status}`);
  const application = await apiClient(dorsal.url).post("/api/photographer-applications", sampleApplication);
  if (application.status !== 201) throw new Error(`application not sent: ${application.status}`);

  const password = "clave-segura-1";
  const photographer = await admin.post<{ user: PublicUser }>("/api/users", {
    name: "Laura Gómez",
    email: "laura.gomez@fotos.test",
    password,
    role: "photographer",
    assignedEventId: event.id,
  });
  if (photographer.status !== 201) throw new Error(`photographer not created: ${photographer.status}`);
  // Accounts with the plain 'user' role come from an admin changing a photographer's role.
  const plain = await admin.post<{ user: PublicUser }>("/api/users", {
    name: "Carlos Ruiz",
    email: "carlos.ruiz@correo.test",
    password,
    role: "photographer",
    assignedEventId: freeEvent.id,
  });
  const demoted = await admin.put(`/api/users/${plain.body.user.id}`, {
    name: "Carlos Ruiz",
    email: "carlos.ruiz@correo.test",
    role: "user",
  });
  if (demoted.status !== 200) throw new Error(`user role not set: ${demoted.status}`);
  const athlete = await apiClient(dorsal.url).post<{ token: string; user: PublicUser }>("/api/auth/athlete-register", {
    name: "Ana Gómez",
    email: "ana.gomez@example.co",
    password,
  });
  if (athlete.status !== 201) throw new Error(`athlete not registered: ${athlete.status}`);

  sessions.set("admin", await signInOverApi(dorsal.adminEmail, dorsal.adminPassword));
  sessions.set("fotografo", await signInOverApi("laura.gomez@fotos.test", password));
  sessions.set("usuario", await signInOverApi("carlos.ruiz@correo.test", password));
  sessions.set("deportista", { ...athlete.body.user, token: athlete.body.token });
}, 240_000);

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

/** A phone-sized page with one of each fault the probe looks for, and the same things done right. */
const faultyPage = `<!doctype html><html lang="es"><head><title>Prueba</title></head><body style="margin:0;font:16px sans-serif">
  <main>
    <h1>Prueba</h1>
    <div style="width:200px;display:flex"><svg viewBox="0 0 24 24" style="width:200px;height:200px"><path d="M4 4h16"/></svg></div>
    <div style="width:120px;height:40px;overflow:hidden"><p style="width:300px;margin:0">Texto recortado sin puntos suspensivos al final</p></div>
    <p style="width:120px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">Texto truncado a propósito con puntos suspensivos</p>
    <div style="width:100px;height:50px"><img alt="Foto" style="width:100px;height:300px" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="></div>
    <div style="width:150px;border:1px solid"><button style="width:260px;flex:none">Ver dorsales de la carrera</button></div>
    <div style="width:100%;overflow-x:auto" tabindex="0" aria-label="Tabla"><div style="width:900px">Ancha pero desplazable</div></div>
    <p style="width:500px">Más ancho que la pantalla</p>
    <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">Solo para lectores de pantalla</span>
  </main>
</body></html>`;

test("the probe reports each kind of fault it looks for, and what is done on purpose passes", async () => {
  const page = await browser.openPage(viewports[0] ?? { width: 390, height: 844 });
  await page.setContent(faultyPage);
  const problems = (await layoutProblems(page)).map(({ selector, problem }) => `${selector}: ${problem}`);
  await browser.closePage();
  const expected = [
    /^html: the page scrolls sideways: 500px wide in a 390px viewport$/,
    /^main > div:nth-of-type\(1\) > svg: icon drawn at 200px×200px, more than 4× its 24×24 design$/,
    /^main > div:nth-of-type\(3\) > img: img 100px×300px is larger than its container 100px×50px$/,
    /^main > div:nth-of-type\(4\) > button "Ver dorsales de la carrera": sticks out of its container \(main > div:nth-of-type\(4\) "Ver dorsales de la carrera"\) by 109px$/,
    /^main > p:nth-of-type\(2\) "Más ancho que la pantalla": 500px wide, wider than the 390px viewport$/,
    /^main > div:nth-of-type\(2\) > p "Texto recortado.*": text "Texto recortado.*" is cut off \d+px sideways by main > div:nth-of-type\(2\)/,
  ];
  expect(problems).toEqual(expected.map((pattern) => expect.stringMatching(pattern)));
});

describe.each(viewports)("$width×$height", (viewport) => {
  const size = `${viewport.width}x${viewport.height}`;
  describe.each(Object.keys(screensByRole) as Role[])("as %s", (role) => {
    let page: Page;
    let requests: RequestTracker;
    /** Whether the screen shown last had something opened on it (a dialog, a menu), which a reload closes. */
    let openedOnLastScreen = false;

    beforeAll(async () => {
      const signedIn = sessions.get(role);
      page = await browser.openPage(viewport, signedIn ? { storageState: tabSignedInAs(dorsal.url, signedIn) } : {});
      requests = trackRequests(page);
    });

    afterAll(async () => {
      await browser.closePage();
    });

    const screens = screensByRole[role].filter((screen) => !screen.widths || screen.widths.includes(viewport.width));
    test.each(screens)("$name", async (screen) => {
      const target = screen.path();
      const errorsBefore = browser.pageErrors.length;
      // The role's first screen loads the app; the others are reached as its links reach them, unless
      // the app would have to leave a dialog open or re-render the page it shows.
      const shownPath = page.url().startsWith(dorsal.url) ? new URL(page.url()).pathname : undefined;
      const inApp = shownPath !== undefined && shownPath !== new URL(target, dorsal.url).pathname;
      if (inApp && !openedOnLastScreen && !screen.reload) {
        await navigateInApp(page, target);
      } else {
        await page.goto(`${dorsal.url}${target}`);
        await page.getByRole("heading").first().waitFor();
      }
      openedOnLastScreen = screen.open !== undefined;
      await pageSettled(page, requests);
      if (screen.open) {
        await screen.open(page);
        await animationsDone(page);
        await pageSettled(page, requests);
      }
      expect(new URL(page.url()).pathname).toBe(screen.landsOn ?? new URL(target, dorsal.url).pathname);

      await page.screenshot({
        path: path.join(screenshots, `${role}-${screen.name}-${viewport.width}.png`),
        fullPage: true,
      });
      const where = `${target}${screen.landsOn ? ` (→ ${screen.landsOn})` : ""} as ${role} at ${size}`;
      const problems = [
        ...browser.pageErrors.slice(errorsBefore).map((error) => `${where} · uncaught error: ${error}`),
        ...(await layoutProblems(page)).map(({ selector, problem }) => `${where} · ${selector}: ${problem}`),
        ...(await accessibilityViolations(page)).map((violation) => `${where} · ${describeViolation(violation)}`),
      ];
      expect(problems, `${problems.length} layout or accessibility problem(s) on ${where}`).toEqual([]);
    });
  });
});
