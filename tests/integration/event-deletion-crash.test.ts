import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDeletionDto, EventDto } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient, deletionFinished } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";
import { itemsOf, storedObjects, tableItems } from "../support/table-scan";

/**
 * An event's deletion whose process dies midway (kill -9 right after its first page of items is
 * gone, as a stopped Lambda would leave it): the event is already off every page, and after the
 * restart the deletion goes on by itself to the end — no item, no stored file left, its report
 * counting each photo, bib and file once — while the other event keeps everything.
 */
describe("an event deletion across a crash", () => {
  let dataDir: string;
  let dorsal: RunningDorsal | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-deletion-crash-"));
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("goes on after the restart and leaves nothing of the event", { timeout: 240_000 }, async () => {
    dorsal = await startDorsal({ dataDir, env: { FAULT_KILL_AT: "event-deletion-page" } });
    const token = await adminToken(dorsal);
    const bibs = ["5173", "5173", "4821"];
    const { event, photoIdsByBib } = await seedEventWithBibPhotos(dorsal, token, {
      name: "Carrera interrumpida",
      bibs,
    });
    const other = await seedEventWithBibPhotos(dorsal, token, { name: "Carrera vecina", bibs: ["4821"] });
    const objects = await storedObjects(dataDir, event.id);
    // The original and its web copy, thumbnail, preview, preview thumbnail and GRATIS/DEMO copy.
    expect(objects).toBe(bibs.length * 6);

    const crashed = dorsal.crash();
    const deleted = await fetch(new URL(`/api/events/${event.id}`, dorsal.url), {
      method: "DELETE",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ adminPassword: dorsal.adminPassword }),
    }).catch(() => undefined);
    // The answer may or may not have left before the kill; the deletion was recorded either way.
    if (deleted) expect(deleted.status).toBe(202);
    expect(await crashed).toBe("SIGKILL");
    // Killed midway: the event's photos and files are still there.
    expect(await storedObjects(dataDir, event.id)).toBe(objects);

    dorsal = await startDorsal({ dataDir });
    expect((await apiClient(dorsal.url).get(`/api/events/${event.id}`)).status).toBe(404);
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const report = await deletionFinished(admin, event.id);
    await dorsal.printed(/event deletions resumed/);
    expect(report).toMatchObject<Partial<EventDeletionDto>>({
      eventName: "Carrera interrumpida",
      status: "done",
      photosAtStart: bibs.length,
      progress: 1,
      deleted: {
        photos: bibs.length,
        bibLinks: bibs.length,
        participants: new Set(bibs).size,
        contentHashes: bibs.length,
        zipBatches: 0,
        uploads: 0,
        objects,
      },
    });
    expect(await storedObjects(dataDir, event.id)).toBe(0);
    // The other event keeps its photo, found by its bib.
    const kept = (await apiClient(dorsal.url).get<EventDto>(`/api/events/${other.event.id}`)).body;
    expect(kept).toMatchObject({ totalPhotos: 1, photoCount: 1 });
    expect(await storedObjects(dataDir, other.event.id)).toBe(6);

    await dorsal.stop();
    dorsal = undefined;
    const photoIds = [...photoIdsByBib.values()].flat();
    expect(photoIds).toHaveLength(bibs.length);
    const items = await tableItems(dataDir);
    expect(itemsOf(items, [event.id], photoIds)).toEqual([]);
    expect(itemsOf(items, [other.event.id]).length).toBeGreaterThan(0);
  });
});
