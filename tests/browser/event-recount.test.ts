import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto } from "@dorsal/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventRepository, emptyRecountCounts } from "../../functions/src/data/events";
import { accessibilityViolations, describeViolation } from "../support/accessibility";
import { adminToken, apiClient } from "../support/api";
import { createBrowserHarness, type SignedInTab, signedInTab, viewports } from "../support/browser";
import { type RunningDorsal, startDorsal } from "../support/server";
import { withStoppedTable } from "../support/table-scan";

/**
 * Issue 24, item 2: a recount of an event's counters runs in the background, and the events screen
 * shows how far it is. The recount is left where a stopped one leaves it (its checkpoint, saved by
 * the events repository into the stopped runtime's table: half through, counting bibs), so the screen
 * has a recount that stays put while it is looked at; the progress's figures come from the use
 * case's tests.
 */

let dorsal: RunningDorsal;
/** The admin's tab, signed in once over the API (signedInTab): the login screen is not this file's subject. */
let adminTab: SignedInTab;
let dataDir: string;
const browser = createBrowserHarness();
const pageErrors = browser.pageErrors;
let recounting: EventDto;
let quiet: EventDto;

/** A recount with its bib links stopped after the photos, as its checkpoint stores it. */
const leaveRecountHalfway = (eventId: number) =>
  withStoppedTable(dataDir, (table) =>
    createEventRepository(table).saveRecountCheckpoint(
      eventId,
      { links: true, phase: "bibs", cursor: null, readAtChanges: 0, counts: emptyRecountCounts(), step: 1 },
      undefined,
    ),
  );

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-recount-"));
  const first = await startDorsal({ dataDir });
  const admin = apiClient(first.url, await adminToken(first));
  recounting = (await admin.post<EventDto>("/api/events", { name: "Maratón de Medellín", date: "2026-09-06" })).body;
  quiet = (await admin.post<EventDto>("/api/events", { name: "Media Maratón de Cali", date: "2026-10-04" })).body;
  await first.stop();
  await leaveRecountHalfway(recounting.id);
  dorsal = await startDorsal({ dataDir });
  adminTab = await signedInTab(dorsal.url, dorsal.adminEmail, dorsal.adminPassword);
  await browser.launch();
}, 180_000);

afterEach(async () => {
  await browser.closePage();
});

afterAll(async () => {
  await browser.close();
  await dorsal?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a recount on the events screen", () => {
  for (const [size, viewport] of [
    ["390", viewports.phone],
    ["1366", { width: 1366, height: 900 }],
  ] as const) {
    it(`shows how far the event's recount is, on that event only (${size} px)`, async () => {
      const page = await browser.openPage(viewport, { storageState: adminTab });
      await page.goto(`${dorsal.url}/events`);
      await page.getByRole("heading", { name: "Gestión de Eventos", level: 1 }).waitFor();
      const row = (name: string) => page.getByRole("listitem").filter({ hasText: name });

      await row(recounting.name).getByText("Recontando los dorsales… 50 %").waitFor();
      const bar = row(recounting.name).getByRole("progressbar", {
        name: `Progreso del recuento de ${recounting.name}`,
      });
      expect(await bar.getAttribute("aria-valuenow")).toBe("50");
      expect(
        await row(quiet.name)
          .getByText(/Recontando|Guardando el recuento/)
          .count(),
      ).toBe(0);
      // An athlete's list of events says nothing of it.
      const shown = (await apiClient(dorsal.url).get<EventDto[]>("/api/events")).body;
      expect(shown.find((event) => event.id === recounting.id)?.recount).toBeUndefined();

      await page.screenshot({ path: `/tmp/events-recount-${size}.png`, fullPage: true });
      const violations = await accessibilityViolations(page);
      expect(violations.map(describeViolation)).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  }
});
