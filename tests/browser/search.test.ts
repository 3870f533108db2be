import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type BibPhotoPage, defaultEventPricing, type EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import PostalMime from "postal-mime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

/**
 * Issue 17, the athlete's first screens on /search (phone first): the event cards fit the screen,
 * the bib is checked as it is typed, an empty result says what to do next, the preview walks the
 * bib's photos and fills the cart, prices and bundles show before the purchase screen, the buy
 * action says why it waits, a free event offers only free downloads, and an athlete can ask to be
 * told when the bib's photos arrive.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let paid: EventDto;
let free: EventDto;

const wide = { width: 1366, height: 900 } as const;
const screenshots = "test-results/search";
/** Long enough to wrap on a phone, as real race names do. */
const paidName = "Media Maratón Internacional de Bogotá";
const freeName = "Carrera Recreativa de Cali";

beforeAll(async () => {
  dorsal = await startDorsal();
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
  await mkdir(screenshots, { recursive: true });
  const token = await adminToken(dorsal);
  ({ event: paid } = await seedEventWithBibPhotos(dorsal, token, {
    name: paidName,
    bibs: ["5173", "5173", "5173", "5173"],
  }));
  // The event's own tiers (spec §9 defaults): 10.000 per photo, 8.000 each from 3 photos.
  const priced = await apiClient(dorsal.url, token).post(`/api/events/${paid.id}/pricing`, defaultEventPricing);
  if (priced.status !== 200) throw new Error(`pricing not saved: ${priced.status}`);
  ({ event: free } = await seedEventWithBibPhotos(dorsal, token, { name: freeName, bibs: ["77"], freePhotos: true }));
}, 240_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
});

interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface LaidOut {
  getBoundingClientRect(): Rect;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
  querySelector(selector: string): LaidOut | null;
  querySelectorAll(selector: string): ArrayLike<LaidOut>;
}
/** The page functions below run in the browser; the test program is typed without the DOM library. */
declare const document: { documentElement: LaidOut; querySelectorAll(selector: string): ArrayLike<LaidOut> };

interface CardLayout {
  card: Rect;
  icon: Rect | null;
  button: Rect | null;
  texts: { text: string; box: Rect; clipped: boolean }[];
}

/** The page's width against the screen's, and each event card's parts against the card. */
function eventCardsLayout(page: Page): Promise<{ scrollWidth: number; clientWidth: number; cards: CardLayout[] }> {
  return page.evaluate(() => {
    const rect = (element: LaidOut): Rect => {
      const { left, right, top, bottom, width, height } = element.getBoundingClientRect();
      return { left, right, top, bottom, width, height };
    };
    const cards = Array.from(document.querySelectorAll('[aria-labelledby="events-title"] li'));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      cards: cards.map((card) => {
        const icon = card.querySelector("svg");
        const button = card.querySelector("button");
        return {
          card: rect(card),
          icon: icon && rect(icon),
          button: button && rect(button),
          texts: Array.from(card.querySelectorAll("h3, p")).map((text) => ({
            text: text.textContent ?? "",
            box: rect(text),
            clipped: text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1,
          })),
        };
      }),
    };
  });
}

const inside = (inner: Rect, outer: Rect) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5;

async function expectCardsFit(page: Page, names: string[]) {
  const layout = await eventCardsLayout(page);
  expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
  expect(layout.cards).toHaveLength(names.length);
  for (const { card, icon, button, texts } of layout.cards) {
    expect(icon).not.toBeNull();
    expect(icon && Math.max(icon.width, icon.height)).toBeLessThanOrEqual(32);
    expect(button && inside(button, card)).toBe(true);
    expect(card.right).toBeLessThanOrEqual(layout.clientWidth);
    for (const text of texts) {
      expect({ text: text.text, clipped: text.clipped, inside: inside(text.box, card) }).toEqual({
        text: text.text,
        clipped: false,
        inside: true,
      });
    }
    const shown = texts.map((text) => text.text).join(" ");
    expect(shown).toContain("29 de noviembre de 2026");
    expect(shown).toContain("Bogotá");
  }
}

const bibInput = (page: Page) => page.getByLabel("Número de dorsal");

/** Searches a bib of an event through the form, as a visitor does. */
async function search(page: Page, event: EventDto, bib: string) {
  await page.goto(`${dorsal.url}/search`);
  await page.getByLabel("Evento", { exact: true }).selectOption(String(event.id));
  await bibInput(page).fill(bib);
  await page.getByRole("button", { name: "Buscar fotos" }).click();
}

describe("event cards", () => {
  for (const [size, viewport] of [
    ["phone", viewports.phone],
    ["desktop", wide],
  ] as const) {
    it(`fit the screen on /search and /free-photos (${size})`, async () => {
      const page = await browser.openPage(viewport);
      await page.goto(`${dorsal.url}/search`);
      await page.getByRole("button", { name: `Ver dorsales de ${paidName}` }).waitFor();
      await page.screenshot({ path: `${screenshots}/events-${size}.png`, fullPage: true });
      await expectCardsFit(page, [paidName, freeName]);

      await page.goto(`${dorsal.url}/free-photos`);
      await page.getByRole("button", { name: `Ver dorsales de ${freeName}` }).waitFor();
      await page.screenshot({ path: `${screenshots}/free-events-${size}.png`, fullPage: true });
      await expectCardsFit(page, [freeName]);
      expect(pageErrors).toEqual([]);
    });
  }
});

describe("search form", () => {
  it("checks the bib as it is typed and clears the warning once the search can run", async () => {
    const page = await browser.openPage(viewports.phone);
    await page.goto(`${dorsal.url}/search`);
    await page.getByRole("button", { name: "Buscar fotos" }).click();
    const incomplete = page.getByText("Datos incompletos");
    await incomplete.waitFor();
    await page.getByLabel("Evento", { exact: true }).selectOption(String(paid.id));
    await incomplete.waitFor({ state: "detached" });

    // Each missing part is marked on its field, and the warning is announced.
    await page.getByLabel("Evento", { exact: true }).selectOption("");
    await page.getByRole("button", { name: "Buscar fotos" }).click();
    await page.getByRole("alert").filter({ hasText: "Datos incompletos" }).waitFor();
    await page.getByText("Elige la carrera", { exact: true }).waitFor();
    await page.getByText("Escribe tu número de dorsal", { exact: true }).waitFor();
    await page.getByLabel("Evento", { exact: true }).selectOption(String(paid.id));
    await page.getByText("Elige la carrera", { exact: true }).waitFor({ state: "detached" });
    await incomplete.waitFor({ state: "detached" });

    await bibInput(page).fill("abc");
    await page.getByText("El dorsal solo lleva letras y números, con al menos un número").waitFor();
    expect(await bibInput(page).getAttribute("aria-invalid")).toBe("true");
    await page.screenshot({ path: `${screenshots}/form-invalid-phone.png`, fullPage: true });
    await page.getByRole("button", { name: "Buscar fotos" }).click();
    expect(page.url()).not.toContain("dorsal=");

    await bibInput(page).fill("5173");
    await page
      .getByText("El dorsal solo lleva letras y números, con al menos un número")
      .waitFor({ state: "detached" });
    expect(await bibInput(page).getAttribute("aria-invalid")).toBeNull();
    await page.getByRole("button", { name: "Buscar fotos" }).click();
    await page.getByRole("heading", { name: "4 fotos del dorsal 5173" }).waitFor();
    expect(await incomplete.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("suggests what to do when a bib has no photos", async () => {
    const page = await browser.openPage(viewports.phone);
    await search(page, paid, "9999");
    await page.getByText("Sin resultados").waitFor();
    await page.getByText("Revisa que 9999 sea el número de tu dorsal").waitFor();
    await page.getByText("Este evento tiene 4 fotos publicadas").waitFor();
    await page.screenshot({ path: `${screenshots}/no-results-phone.png`, fullPage: true });
    await page.getByRole("button", { name: "Ver los dorsales con fotos" }).click();
    await page.getByRole("button", { name: "Dorsal 5173 con 4 fotos" }).waitFor();
    // The grid's buttons are named by what they show (WCAG 2.5.3), which axe checks.
    expect(await accessibilityViolations(page)).toEqual([]);

    await search(page, free, "9999");
    await page.getByText("Sin resultados").waitFor();
    await page.getByText("Las fotos de este evento son gratis").waitFor();
    await page.getByRole("button", { name: "Ver los dorsales con fotos" }).click();
    await page.getByRole("button", { name: "Dorsal 77 con 1 foto" }).waitFor();

    // 'Avísame cuando estén mis fotos' under the results: nothing ticked for the athlete, the box
    // ticked by keyboard, and the emailed link's page confirms only when pressed.
    await page.goto(`${dorsal.url}/search?eventId=${paid.id}&dorsal=9999`);
    const notify = page.getByRole("form", { name: "Avísame cuando estén mis fotos" });
    const consent = notify.getByRole("checkbox");
    await notify.getByLabel("Tu correo").fill("aviso@example.com");
    expect(await consent.isChecked()).toBe(false);
    await consent.focus();
    await page.keyboard.press("Space");
    await notify.getByRole("button", { name: "Avísame" }).click();
    await page.getByText("Revisa tu correo").waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(viewports.phone.width);
    const confirmLink = await waitFor(
      async () => {
        const names = await readdir(path.join(dorsal.dataDir, "outbox")).catch(() => []);
        const mails = await Promise.all(
          names.map(async (name) => PostalMime.parse(await readFile(path.join(dorsal.dataDir, "outbox", name)))),
        );
        return mails.map((mail) => /\S+\/avisos\/confirmar#\S+/.exec(mail.text ?? "")?.[0]).find(Boolean);
      },
      10_000,
      "the confirmation email",
    );
    await page.goto(confirmLink);
    await page.getByRole("button", { name: "Confirmar" }).click();
    await page.getByText("te escribiremos cuando haya fotos de tu dorsal").waitFor();
    expect(pageErrors).toEqual([]);
  });
});

describe("results of a paid event", () => {
  it("shows prices and bundles, and says why buying waits for a photo", async () => {
    const page = await browser.openPage(viewports.phone);
    await search(page, paid, "5173");
    await page.getByRole("heading", { name: "4 fotos del dorsal 5173" }).waitFor();
    const prices = page.getByRole("region", { name: "Precios" });
    await prices.getByText("Precio por foto: $ 10.000 COP").waitFor();
    await prices.getByText("3 fotos: $ 8.000 COP c/u").waitFor();
    await prices.getByText("Todas las 4 fotos: $ 32.000 COP (ahorras $ 8.000 COP)").waitFor();

    const buy = page.getByRole("button", { name: "Comprar fotos" });
    expect(await buy.isDisabled()).toBe(true);
    expect(await buy.getAttribute("aria-describedby")).toBeTruthy();
    const reason = page.locator(`[id="${await buy.getAttribute("aria-describedby")}"]`);
    expect(await reason.textContent()).toBe("Elige al menos una foto");
    await imagesLoaded(page, "main img", { nonEmpty: true });
    await page.screenshot({ path: `${screenshots}/results-phone.png`, fullPage: true });

    await prices.getByRole("button", { name: "Elegir todas" }).click();
    await page.getByText("4 fotos en el carrito").waitFor();
    expect(await prices.getByRole("button", { name: "Todas en el carrito" }).isDisabled()).toBe(true);
    await page.getByTestId("selection-total").getByText("$ 32.000 COP").waitFor();
    await page.getByTestId("selection-total").getByText("Ahorras $ 8.000 COP").waitFor();
    expect(await buy.isDisabled()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.phone.width);
    // As the phone shows it: the cart bar stays at the bottom of the screen over the photos.
    await page
      .getByRole("button", { name: /^Ver foto / })
      .last()
      .scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshots}/cart-bar-phone.png` });

    await page.getByRole("button", { name: "Vaciar carrito" }).click();
    await page
      .getByRole("checkbox", { name: /^Elegir / })
      .first()
      .check({ force: true });
    await page.getByText("1 foto en el carrito").waitFor();
    await page.getByTestId("selection-total").getByText("$ 10.000 COP").waitFor();
    await buy.click();
    await page.waitForURL(/\/photo-purchase\?/);
    await expect.poll(() => page.getByTestId("cart-total").textContent()).toBe("$ 10.000 COP");
    expect(pageErrors).toEqual([]);
  });

  it("walks the photos in the preview and adds them to the cart", async () => {
    const page = await browser.openPage(viewports.phone);
    await search(page, paid, "5173");
    await page.getByRole("heading", { name: "4 fotos del dorsal 5173" }).waitFor();
    const firstName = (
      await page
        .getByRole("button", { name: /^Ver foto / })
        .first()
        .getAttribute("aria-label")
    )?.replace("Ver foto ", "");
    await page.getByRole("button", { name: `Ver foto ${firstName}` }).click();
    const preview = page.getByRole("dialog", { name: "Vista previa" });
    await preview.getByText("Foto 1 de 4").waitFor();
    await preview.getByText("$ 10.000 COP").waitFor();
    await preview.getByRole("img", { name: `Foto ${firstName}` }).waitFor();
    await animationsDone(page);
    await imagesLoaded(page, "[role=dialog] img", { nonEmpty: true });
    await page.screenshot({ path: `${screenshots}/preview-phone.png` });
    expect(await preview.getByRole("button", { name: "Foto anterior" }).isDisabled()).toBe(true);

    await preview.getByRole("button", { name: "Agregar al carrito" }).click();
    await preview.getByRole("button", { name: "Quitar del carrito" }).waitFor();
    await preview.getByText("1 foto en el carrito").waitFor();

    await preview.getByRole("button", { name: "Foto siguiente" }).click();
    await preview.getByText("Foto 2 de 4").waitFor();
    await preview.getByRole("button", { name: "Agregar al carrito" }).waitFor();
    await page.keyboard.press("ArrowRight");
    await preview.getByText("Foto 3 de 4").waitFor();
    await page.keyboard.press("ArrowLeft");
    await preview.getByText("Foto 2 de 4").waitFor();

    // A finger swiping right to left on the photo shows the next one. The photo is measured once it
    // has its size: a swipe across a photo still loading spans less than the threshold.
    await animationsDone(page);
    await imagesLoaded(page, "[role=dialog] img", { nonEmpty: true });
    const photo = await preview.getByRole("img", { name: /^Foto / }).boundingBox();
    if (!photo) throw new Error("the preview shows no photo");
    const touch = await page.context().newCDPSession(page);
    const y = photo.y + photo.height / 2;
    const at = (x: number) => [{ x, y }];
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(photo.x + photo.width - 20) });
    await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(photo.x + photo.width / 2) });
    await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(photo.x + 20) });
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await preview.getByText("Foto 3 de 4").waitFor();

    await preview.getByRole("button", { name: "Agregar al carrito" }).click();
    await preview.getByText("2 fotos en el carrito").waitFor();
    await preview.getByRole("button", { name: "Cerrar" }).click();
    await preview.waitFor({ state: "detached" });
    expect(await page.getByRole("checkbox", { name: `Elegir ${firstName}` }).isChecked()).toBe(true);
    await page.getByText("2 fotos en el carrito").waitFor();
    await page.getByTestId("selection-total").getByText("$ 20.000 COP").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("fits a desktop screen", async () => {
    const page = await browser.openPage(wide);
    await search(page, paid, "5173");
    await page.getByRole("heading", { name: "4 fotos del dorsal 5173" }).waitFor();
    await page
      .getByRole("checkbox", { name: /^Elegir / })
      .first()
      .check({ force: true });
    await page.getByText("1 foto en el carrito").waitFor();
    await imagesLoaded(page, "main img", { nonEmpty: true });
    await page.screenshot({ path: `${screenshots}/results-desktop.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(wide.width);
    await page
      .getByRole("button", { name: /^Ver foto / })
      .first()
      .click();
    const preview = page.getByRole("dialog", { name: "Vista previa" });
    await preview.getByText("Foto 1 de 4").waitFor();
    await animationsDone(page);
    await imagesLoaded(page, "[role=dialog] img", { nonEmpty: true });
    await page.screenshot({ path: `${screenshots}/preview-desktop.png` });
    expect(pageErrors).toEqual([]);
  });
});

describe("results of a free event", () => {
  it("offer only free downloads", async () => {
    const page = await browser.openPage(viewports.phone);
    await search(page, free, "77");
    await page.getByRole("heading", { name: "1 foto gratis del dorsal 77" }).waitFor();
    await page.getByRole("button", { name: "Descargar todas" }).waitFor();
    expect(await page.getByRole("button", { name: /Comprar/ }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Comprar/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Tengo un código/ }).count()).toBe(0);
    await imagesLoaded(page, "main img", { nonEmpty: true });
    await page.screenshot({ path: `${screenshots}/free-results-phone.png`, fullPage: true });

    const saved = page.waitForEvent("download");
    await page.getByRole("button", { name: "Descargar bib-77-0.jpg" }).click();
    expect((await saved).suggestedFilename()).toBe("bib-77-0.jpg");
    expect(pageErrors).toEqual([]);
  });
});

describe("an admin's search (spec §2.6)", () => {
  it("shows the photos clean in admin mode, with nothing to buy, and as a participant on request", async () => {
    const token = await adminToken(dorsal);
    const { body: clean } = await apiClient(dorsal.url, token).get<BibPhotoPage>(
      `/api/events/${paid.id}/photos/5173/all?mode=admin`,
    );
    const cleanThumbnails = clean.photos.map((photo) => new URL(photo.thumbnailUrl ?? "", dorsal.url).pathname);
    const tileThumbnails = async (page: Page) =>
      Promise.all(
        (await page.locator("main ul img").all()).map(
          async (image) => new URL((await image.getAttribute("src")) ?? "", dorsal.url).pathname,
        ),
      );

    for (const [viewport, name] of [
      [viewports.phone, "phone"],
      [wide, "desktop"],
    ] as const) {
      const page = await browser.openPage(viewport, { storageState: adminTab });
      await page.goto(`${dorsal.url}/search?eventId=${paid.id}&dorsal=5173`);
      const modes = page.getByRole("group", { name: "Ver la búsqueda como" });
      await modes.getByRole("button", { name: "Administrador", pressed: true }).waitFor();
      await page.getByText("Ves todas las fotos sin marca de agua y sin comprarlas.").waitFor();
      await page.getByRole("heading", { name: "4 fotos del dorsal 5173" }).waitFor();
      expect((await tileThumbnails(page)).sort()).toEqual([...cleanThumbnails].sort());
      expect(await page.getByRole("button", { name: /Tengo un código/ }).count()).toBe(0);
      expect(await page.getByRole("checkbox").count()).toBe(0);
      expect(await page.getByText(/Precio por foto/).count()).toBe(0);
      await imagesLoaded(page, "main img", { nonEmpty: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `${screenshots}/admin-mode-${name}.png`, fullPage: true });

      // Participant mode: the search exactly as an athlete sees it.
      await modes.getByRole("button", { name: "Participante" }).click();
      await modes.getByRole("button", { name: "Participante", pressed: true }).waitFor();
      await page.getByRole("button", { name: /Tengo un código/ }).waitFor();
      await page.getByText("Precio por foto: $ 10.000 COP").waitFor();
      expect(await tileThumbnails(page)).not.toEqual(expect.arrayContaining(cleanThumbnails));
      await page.screenshot({ path: `${screenshots}/admin-participant-${name}.png`, fullPage: true });
      await browser.closePage();
    }
    expect(pageErrors).toEqual([]);
  });
});
