import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

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
        executablePath: "/usr/bin/chromium",
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
    async openPage(viewport: { width: number; height: number }): Promise<Page> {
      if (!browser) throw new Error("launch() the browser first");
      context = await browser.newContext({ viewport, locale: "es-CO" });
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
  await page.getByRole("heading", { name: "Dashboard General" }).waitFor();
}
