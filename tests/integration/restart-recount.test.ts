import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventRepository } from "../../functions/src/data/events";
import { withBenchTable } from "../bench/seed-event";
import { adminToken, apiClient } from "../support/api";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The start-up recount is what makes counters exact after a kill (a write left behind); after a
 * stop that let every write finish there is nothing to fix, and a 100,000-photo event's recount
 * costs minutes of start-up (npm run bench:scale), so it is skipped. The counter is skewed here by
 * hand, with the runtime stopped, to see which start recounted.
 */
describe("the start-up recount", () => {
  let dataDir: string;
  let dorsal: RunningDorsal | undefined;
  let event: EventDto;

  const processedPhotos = async () =>
    (await apiClient(dorsal?.url ?? "").get<EventDto>(`/api/events/${event.id}`)).body.photoCount;
  const skewCounter = () =>
    withBenchTable(dataDir, (table) =>
      createEventRepository(table).addStats(event.id, { processedPhotos: 5 }, new Date()),
    );
  const marked = () =>
    access(path.join(dataDir, "stopped-cleanly")).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-restart-recount-"));
    dorsal = await startDorsal({ dataDir });
    ({ event } = await seedEventWithBibPhotos(dorsal, await adminToken(dorsal), { name: "Reinicio", bibs: ["77"] }));
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("is skipped after a clean stop, which leaves its mark for the next start only", async () => {
    expect(await processedPhotos()).toBe(1);
    await dorsal?.stop();
    expect(await marked()).toBe(true);
    await skewCounter();
    dorsal = await startDorsal({ dataDir });
    // Taken at start: a kill from now on must not pass for a clean stop.
    expect(await marked()).toBe(false);
    expect(await processedPhotos()).toBe(6);
  });

  it("runs after a kill, and puts the counters right", async () => {
    await dorsal?.kill();
    expect(await marked()).toBe(false);
    dorsal = await startDorsal({ dataDir });
    expect(await processedPhotos()).toBe(1);
    // And a clean stop after a skewed counter made by hand is still only skipped once the counters were recounted.
    await dorsal.stop();
    await skewCounter();
    dorsal = await startDorsal({ dataDir });
    expect(await processedPhotos()).toBe(6);
  });
});
