import { createEventRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../adapters/memory/clock";
import type { BackgroundJob, EventJobInput } from "../jobs/definitions";
import { memoryContainer } from "../testing/memory-container";
import { createEvent } from "./events";
import { resumeFaceIndexing } from "./face-search";

const minute = 60_000;

/**
 * Prepare: four events, each with an indexing run. Three have selfie search on, and their runs are,
 * 40 minutes on: stopped midway, still recording, finished; the fourth has it off and its run unfinished.
 */
async function world() {
  const clock = createManualClock(new Date("2026-11-29T08:00:00Z"));
  const { deps } = await memoryContainer({ clock });
  const started: { job: BackgroundJob; input: EventJobInput }[] = [];
  const withJobs = {
    ...deps,
    jobs: { start: async (job: BackgroundJob, input: EventJobInput) => void started.push({ job, input }) },
  };
  const model = await deps.faceSearch.descriptorModel();
  const eventWith = async (name: string, faceSearch: boolean, describedBy = model) => {
    const event = await createEvent(deps, createEventRequest.parse({ name, date: "2026-11-29" }));
    await deps.events.update(event.id, { faceSearch, updatedAt: clock.now().toISOString() });
    await deps.faceIndexing.begin(event.id, 30, clock.now().toISOString(), describedBy);
    return event.id;
  };
  const stopped = await eventWith("Se detuvo", true);
  const live = await eventWith("Sigue", true);
  const finished = await eventWith("Terminó", true);
  const off = await eventWith("Apagada", false);
  const cursor = { pk: `EVENT#${stopped}`, sk: "PHOTO#0010" };
  await deps.faceIndexing.progress(stopped, 1, {
    done: 10,
    cursor,
    finished: false,
    updatedAt: clock.now().toISOString(),
  });
  clock.advance(40 * minute);
  await deps.faceIndexing.progress(live, 1, {
    done: 20,
    cursor,
    finished: false,
    updatedAt: clock.now().toISOString(),
  });
  await deps.faceIndexing.progress(finished, 1, {
    done: 30,
    cursor: null,
    finished: true,
    updatedAt: "2026-11-29T08:05:00Z",
  });
  return { deps: withJobs, clock, started, events: { stopped, live, finished, off }, cursor, eventWith };
}

describe("resuming selfie search's indexing", () => {
  it("starts again, from where it got to, only a run that recorded nothing for the stall time", async () => {
    const { deps, clock, started, events, cursor } = await world();

    const resumed = await resumeFaceIndexing(deps, { stalledMinutes: 30 });

    expect(resumed).toEqual([events.stopped]);
    expect(started).toEqual([{ job: "faceIndexing", input: { eventId: events.stopped, attempt: 2 } }]);
    expect(await deps.faceIndexing.get(events.stopped)).toMatchObject({
      attempt: 2,
      done: 10,
      cursor,
      finished: false,
      updatedAt: clock.now().toISOString(),
    });
    // The first attempt's workflow, if it were still alive, could no longer record.
    expect(await deps.faceIndexing.progress(events.stopped, 1, { done: 11, cursor, finished: false })).toBe(false);
  });

  it("claims a run once: a second caller right after finds nothing to start", async () => {
    const { deps, started } = await world();
    await resumeFaceIndexing(deps, { stalledMinutes: 30 });

    expect(await resumeFaceIndexing(deps, { stalledMinutes: 30 })).toEqual([]);
    expect(started).toHaveLength(1);
  });

  it("at start-up (no stall time) starts every unfinished run of an event with the search on", async () => {
    const { deps, events } = await world();

    expect((await resumeFaceIndexing(deps, { stalledMinutes: 0 })).sort()).toEqual(
      [events.stopped, events.live].sort(),
    );
  });

  it("describes every photo again when another descriptor model described the event's faces", async () => {
    const { deps, clock, started, events, eventWith } = await world();
    const upgraded = await eventWith("Otro modelo", true, "dlib-resnet");
    await deps.faceIndexing.progress(upgraded, 1, { done: 30, cursor: null, finished: true });
    const model = await deps.faceSearch.descriptorModel();

    const resumed = await resumeFaceIndexing(deps, { stalledMinutes: 30 });

    expect(resumed.sort()).toEqual([events.stopped, upgraded].sort());
    expect(started).toContainEqual({ job: "faceIndexing", input: { eventId: upgraded, attempt: 2 } });
    expect(await deps.faceIndexing.get(upgraded)).toMatchObject({
      model,
      attempt: 2,
      done: 0,
      cursor: null,
      finished: false,
      updatedAt: clock.now().toISOString(),
    });
    expect(model).toMatch(/^human-faceres@/);
    // Once described by the current model, the event is left alone.
    expect(await resumeFaceIndexing(deps, { stalledMinutes: 30 })).toEqual([]);
  });
});
