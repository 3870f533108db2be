import { createEventRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { type EventStats, emptyRecountCounts, type RecountPosition } from "../data/events";
import { memoryContainer } from "../testing/memory-container";
import { createEvent, listEvents, recountProgress } from "./events";
import { recountEventStats } from "./processing";

const counted = (totalPhotos: number, bibsWithPhotos: number): RecountPosition["counts"] => ({
  ...emptyRecountCounts(),
  totalPhotos,
  processedPhotos: totalPhotos,
  dorsalsDetected: bibsWithPhotos,
  bibsWithPhotos,
});
const stats = { totalPhotos: 1000, bibsWithPhotos: 200 } as EventStats;

describe("a recount's progress", () => {
  it("is the share of the photos read, then of the bibs, each half of a recount that counts links", () => {
    expect(recountProgress({ links: true, phase: "photos", counts: counted(400, 0) }, stats)).toEqual({
      phase: "photos",
      percent: 20,
    });
    expect(recountProgress({ links: true, phase: "bibs", counts: counted(1000, 50) }, stats).percent).toBe(62);
    expect(recountProgress({ links: false, phase: "photos", counts: counted(400, 0) }, stats).percent).toBe(40);
    // More read than the counters said (photos came in meanwhile), or counters not kept yet: never 100.
    expect(recountProgress({ links: false, phase: "photos", counts: counted(1500, 0) }, stats).percent).toBe(99);
    expect(recountProgress({ links: true, phase: "photos", counts: counted(30, 0) }, undefined).percent).toBe(0);
    expect(recountProgress({ links: true, phase: "replace", counts: counted(1000, 200) }, stats).percent).toBe(99);
  });

  it("is on the admin's list of events while a recount is under way, and gone once it ends", async () => {
    // Prepare: two events; one's recount stops after each page, as its time slices do.
    const { deps } = await memoryContainer();
    const counting = await createEvent(deps, createEventRequest.parse({ name: "En recuento", date: "2026-12-02" }));
    const quiet = await createEvent(deps, createEventRequest.parse({ name: "Tranquila", date: "2026-12-02" }));
    const recountFor = (eventId: number) => async () =>
      (await listEvents(deps, { asAdmin: true })).find((event) => event.id === eventId)?.recount;

    // Act: its first slice reads the (empty) photos; the second, the bibs.
    expect(await recountEventStats(deps, counting.id, { links: true, more: () => false })).toEqual({
      replaced: false,
      paused: true,
    });
    // Assess: the admin sees how far it is, the public list says nothing of it, the other event has none.
    expect(await recountFor(counting.id)()).toEqual({ phase: "bibs", percent: 50 });
    expect(await recountFor(quiet.id)()).toBeUndefined();
    const shown = (await listEvents(deps, { asAdmin: false })).find((event) => event.id === counting.id);
    expect(shown).toBeDefined();
    expect(shown?.recount).toBeUndefined();

    await recountEventStats(deps, counting.id, { links: true, more: () => false });
    expect(await recountFor(counting.id)()).toEqual({ phase: "replace", percent: 99 });

    expect(await recountEventStats(deps, counting.id, { links: true })).toEqual({ replaced: true });
    expect(await recountFor(counting.id)()).toBeUndefined();
  });
});
