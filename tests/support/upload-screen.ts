import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, onTestFinished } from "vitest";
import { adminToken, apiClient } from "./api";
import { createBrowserHarness, type SignedInTab, signedInTab } from "./browser";
import { type RunningDorsal, startDorsal } from "./server";

/**
 * A folder for files the test picks from disk (a file keeps its name, size and date there, which
 * is how a resumed upload recognises it), removed when the test ends: they are tens of MB each.
 */
async function filesFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "dorsal-files-"));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

type Viewport = { width: number; height: number };

/**
 * What the upload screen's browser suites share: one runtime and one browser per file, a fresh
 * page per test, and an event per test, since the screen picks an admin's newest event.
 */
export function uploadScreenSuite(eventDate: string) {
  const browser = createBrowserHarness();
  let dorsal: RunningDorsal | undefined;
  let admin: ReturnType<typeof apiClient> | undefined;
  /** The admin's tab, signed in once over the API: the login screen is the smoke tests' subject. */
  let adminTab: SignedInTab | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the suite's runtime is not started (beforeAll)");
    return value;
  };

  beforeAll(async () => {
    dorsal = await startDorsal();
    await browser.launch();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  });
  afterEach(async () => {
    await browser.closePage();
  });
  afterAll(async () => {
    await browser.close();
    await dorsal?.stop();
  });

  async function goToUpload(page: Page): Promise<void> {
    await page.goto(`${started(dorsal).url}/upload`);
    await page.getByRole("heading", { name: "Carga Masiva de Fotos", level: 1 }).waitFor();
  }

  return {
    browser,
    pageErrors: browser.pageErrors,
    url: () => started(dorsal).url,
    admin: () => started(admin),
    async newEvent(name: string): Promise<EventDto> {
      return (await started(admin).post<EventDto>("/api/events", { name, date: eventDate })).body;
    },
    filesFolder,
    /**
     * Writes a file for the test to pick by path. A big file handed to `setInputFiles` as a buffer
     * crosses the browser protocol as base64 (40 MB for a 30 MB photo), which on a loaded machine
     * outlasted Playwright's 30 s action timeout; a path is only named to the browser.
     */
    async onDisk(name: string, buffer: Buffer): Promise<string> {
      const file = path.join(await filesFolder(), name);
      await writeFile(file, buffer);
      return file;
    },
    /** A page in a tab the admin signed in on already. */
    openSignedIn(viewport: Viewport): Promise<Page> {
      return browser.openPage(viewport, { storageState: started(adminTab) });
    },
    goToUpload,
    async openUploadScreen(viewport: Viewport): Promise<Page> {
      const page = await browser.openPage(viewport, { storageState: started(adminTab) });
      await goToUpload(page);
      return page;
    },
  };
}

/** What the text recorder below uses of the browser: the page's globals, typed without the DOM library. */
declare const window: { dorsalSeenTexts?: string[]; scrollTo(x: number, y: number): void };
declare const document: { body: { innerText: string } };
declare function requestAnimationFrame(callback: () => void): number;
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: { subtree: boolean; childList: boolean; characterData: boolean }): void;
}

/**
 * Records, from now on, every distinct text of the page matching `pattern`, in the order they first
 * appeared, looking each time the page changes: what a person saw go by, such as a progress count,
 * however fast. Returns a reader of what was seen so far.
 */
export async function recordTexts(page: Page, pattern: RegExp): Promise<() => Promise<string[]>> {
  await page.evaluate(
    ({ source, flags }) => {
      const seen: string[] = [];
      window.dorsalSeenTexts = seen;
      const pattern = new RegExp(source, `${flags.replace("g", "")}g`);
      let scheduled = false;
      const look = () => {
        scheduled = false;
        for (const match of document.body.innerText.match(pattern) ?? []) {
          if (!seen.includes(match)) seen.push(match);
        }
      };
      // Once per frame at most: what changes and changes back within a frame, nobody saw.
      const schedule = () => {
        if (scheduled) return;
        scheduled = true;
        requestAnimationFrame(look);
      };
      new MutationObserver(schedule).observe(document.body, { subtree: true, childList: true, characterData: true });
      look();
    },
    { source: pattern.source, flags: pattern.flags },
  );
  return () => page.evaluate(() => window.dorsalSeenTexts ?? []);
}

/** A screenshot of the whole screen from its top, so the sticky header sits where a person sees it. */
export async function wholePage(page: Page, path: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
}
