import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto } from "@dorsal/shared";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, onTestFinished } from "vitest";
import { adminToken, apiClient } from "./api";
import { createBrowserHarness, signInAsAdmin } from "./browser";
import { type RunningDorsal, startDorsal } from "./server";

/**
 * What the upload screen's browser suites share: one runtime and one browser per file, a fresh
 * page per test, and an event per test, since the screen picks an admin's newest event.
 */
export function uploadScreenSuite(eventDate: string) {
  const browser = createBrowserHarness();
  let dorsal: RunningDorsal | undefined;
  let admin: ReturnType<typeof apiClient> | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the suite's runtime is not started (beforeAll)");
    return value;
  };

  beforeAll(async () => {
    dorsal = await startDorsal();
    await browser.launch();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
  });
  afterEach(async () => {
    await browser.closePage();
  });
  afterAll(async () => {
    await browser.close();
    await dorsal?.stop();
  });

  return {
    browser,
    pageErrors: browser.pageErrors,
    url: () => started(dorsal).url,
    admin: () => started(admin),
    async newEvent(name: string): Promise<EventDto> {
      return (await started(admin).post<EventDto>("/api/events", { name, date: eventDate })).body;
    },
    /**
     * A folder for files the test picks from disk (a file keeps its name, size and date there, which
     * is how a resumed upload recognises it), removed when the test ends: they are tens of MB each.
     */
    async filesFolder(): Promise<string> {
      const folder = await mkdtemp(path.join(tmpdir(), "dorsal-files-"));
      onTestFinished(() => rm(folder, { recursive: true, force: true }));
      return folder;
    },
    async signInToUpload(page: Page): Promise<void> {
      await signInAsAdmin(page, started(dorsal));
      await page.goto(`${started(dorsal).url}/upload`);
      await page.getByRole("heading", { name: "Carga Masiva de Fotos" }).waitFor();
    },
  };
}
