import { describe, expect, it } from "vitest";
import { createManualClock } from "./clock";
import { createMemoryMetrics, percentile } from "./metrics";

describe("metrics held in memory", () => {
  it("summarises a window: count, sum, max and nearest-rank percentiles", async () => {
    const clock = createManualClock(new Date("2026-12-06T09:00:00Z"));
    const metrics = createMemoryMetrics(clock);
    for (let ms = 1; ms <= 100; ms++) metrics.put("StageMs", ms * 10, { stage: "detect" });
    metrics.put("StageMs", 99_999, { stage: "variants" });

    const summary = await metrics.summary({ name: "StageMs", stage: "detect", since: clock.now(), until: clock.now() });

    expect(summary).toEqual({ count: 100, sum: 50_500, max: 1000, p50: 500, p95: 950 });
  });

  it("leaves out what is outside the window, and what is older than two hours", async () => {
    const clock = createManualClock(new Date("2026-12-06T09:00:00Z"));
    const metrics = createMemoryMetrics(clock);
    metrics.put("RssBytes", 1);
    clock.advance(3 * 3600_000);
    metrics.put("RssBytes", 2);

    const all = await metrics.summary({ name: "RssBytes", since: new Date(0), until: clock.now() });

    expect(all).toMatchObject({ count: 1, sum: 2 });
  });

  it("gives the maximum of each slice of the window that has values, oldest first", async () => {
    const clock = createManualClock(new Date("2026-12-06T09:00:00Z"));
    const metrics = createMemoryMetrics(clock);
    const since = clock.now();
    for (const [minute, value] of [
      [0, 5],
      [1, 7],
      [7, 3],
    ] as const) {
      metrics.put("RssBytes", value, { at: new Date(since.getTime() + minute * 60_000) });
    }

    const until = new Date(since.getTime() + 10 * 60_000);
    const maxima = await metrics.maxima({ name: "RssBytes", since, until, periodSeconds: 180 });

    expect(maxima).toEqual([
      { at: since, value: 7 },
      { at: new Date(since.getTime() + 6 * 60_000), value: 3 },
    ]);
  });

  it("takes percentiles by nearest rank, and none of nothing", () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([4], 0.95)).toBe(4);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
  });
});
