import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Debian's headless shell (package `chromium-headless-shell`) when installed, else Debian's Chromium.
 * The shell is the same Blink without the full browser's windowing and compositing: on the same
 * journeys it took 55 % of Chromium's CPU and 76 % of the wall time (docs/testing.md). Playwright's
 * own headless mode runs it too.
 */
const headlessShell = "/usr/bin/chromium-headless-shell";
const executablePath = existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium";

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). The flags keep it
 * from reaching for the network, which this machine does not have.
 */
export function createBrowserHarness() {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  /** Uncaught errors of the page opened last. */
  const pageErrors: string[] = [];
  return {
    pageErrors,
    async launch() {
      browser = await chromium.launch({
        executablePath,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
    },
    /** A page in a new context; `options` add to the context's (a stored session, say). */
    async openPage(viewport: { width: number; height: number }, options: BrowserContextOptions = {}): Promise<Page> {
      if (!browser) throw new Error("launch() the browser first");
      context = await browser.newContext({ viewport, locale: "es-CO", ...options });
      const page = await context.newPage();
      pageErrors.length = 0;
      page.on("pageerror", (error) => pageErrors.push(error.message));
      return page;
    },
    async closePage() {
      await context?.close();
      context = undefined;
    },
    async close() {
      await browser?.close();
    },
  };
}

/** What a tab holds once someone has signed in: the app keeps the session in localStorage (spec §2.1). */
export type SignedInTab = NonNullable<BrowserContextOptions["storageState"]>;

/** The tab of `user` (as `/api/auth/login` answers it, token included) on `origin`. */
export function tabSignedInAs(origin: string, user: { token: string }): SignedInTab {
  return {
    cookies: [],
    origins: [{ origin, localStorage: [{ name: "race_photo_user", value: JSON.stringify(user) }] }],
  };
}

/**
 * Signs `email` in over the API, once for a whole file, for contexts that open already signed in
 * (`openPage(viewport, { storageState })`). The login screens are the smoke, users and settings
 * tests' subject; elsewhere going through one cost a page load and the dashboard each time:
 * ~1.5 CPU-s of Chromium against ~0.85 for opening the screen signed in (2026-12-07).
 */
export async function signedInTab(url: string, email: string, password: string): Promise<SignedInTab> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`${email} could not sign in: ${response.status}`);
  const { user, token } = (await response.json()) as { user: object; token: string };
  return tabSignedInAs(url, { ...user, token });
}

/** Fills and sends a login screen's form; the caller waits for wherever it should land. */
export async function signIn(page: Page, loginUrl: string, email: string, password: string): Promise<void> {
  await page.goto(loginUrl);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Ingresar" }).click();
}

/** Signs in as the runtime's admin and waits for the dashboard. */
export async function signInAsAdmin(
  page: Page,
  dorsal: { url: string; adminEmail: string; adminPassword: string },
): Promise<void> {
  await signIn(page, `${dorsal.url}/admin-login`, dorsal.adminEmail, dorsal.adminPassword);
  await page.getByRole("heading", { name: "Panel general" }).waitFor();
}

/**
 * What the page predicates below use of the browser's `document`: they are functions that run in
 * the page (a string predicate would need `eval`, which the app's CSP forbids), and the test
 * programs are typed without the DOM library.
 */
declare const document: {
  getAnimations(): { playState: string }[];
  querySelectorAll(
    selector: string,
  ): ArrayLike<{ complete: boolean; naturalWidth: number; setAttribute(name: string, value: string): void }>;
  activeElement: { getAttribute(name: string): string | null } | null;
};
declare const history: { pushState(state: unknown, unused: string, url: string): void };
declare function dispatchEvent(event: unknown): boolean;
declare const PopStateEvent: new (type: string) => unknown;

/** Marks the headings a page showed before the app was told to go elsewhere. */
const shownBefore = "data-shown-before";
const headings = "h1, h2, h3, h4, h5, h6, [role='heading']";

/**
 * Goes to `target` (a path) as the app's own links do: the router is told of a new location and
 * renders it, with no reload. Then waits for a heading the previous screen did not have. A reload
 * parses the app's script again (and anything a test injected, such as axe-core): the layout sweep
 * took 91 s alone this way against 120 s with a reload a screen (2026-12-02). Only for another
 * route: a route that stays mounted keeps its headings.
 */
export async function navigateInApp(page: Page, target: string): Promise<void> {
  await page.evaluate(
    ({ to, marker, selector }) => {
      for (const heading of Array.from(document.querySelectorAll(selector))) heading.setAttribute(marker, "");
      history.pushState(null, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
    },
    { to: target, marker: shownBefore, selector: headings },
  );
  await page.locator(`:is(${headings}):not([${shownBefore}])`).first().waitFor();
}

/** Dialogs fade and zoom in; a screenshot or a click taken mid-way finds them half there. */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
}

/** Until every image `selector` matches has decoded (`nonEmpty`: and has pixels), so screenshots show them. */
export async function imagesLoaded(page: Page, selector: string, options: { nonEmpty?: boolean } = {}): Promise<void> {
  await page.waitForFunction(
    ({ selector, nonEmpty }) =>
      Array.from(document.querySelectorAll(selector)).every(
        (img) => img.complete && (!nonEmpty || img.naturalWidth > 0),
      ),
    { selector, nonEmpty: options.nonEmpty === true },
  );
}

/** Until the focused element is an input of this type. */
export async function focusedInput(page: Page, type: string): Promise<void> {
  await page.waitForFunction((expected) => document.activeElement?.getAttribute("type") === expected, type);
}
