import { measuredStages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import {
  cleanupMessage,
  formatDuration,
  formatMegabytes,
  formatPercent,
  formatRate,
  hitRatePalette,
  memoryBars,
  photosMeasured,
  progressPercent,
  stageLabels,
} from "./format";

describe("performance screen formats", () => {
  it("shows times under a second in ms, longer ones in seconds with one decimal (spec §9)", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(999.4)).toBe("999 ms");
    expect(formatDuration(1000)).toBe("1,0 s");
    expect(formatDuration(61_250)).toBe("61,3 s");
  });

  it("shows memory in whole MB (spec §9)", () => {
    expect(formatMegabytes(0)).toBe("0 MB");
    expect(formatMegabytes(150.6 * 1024 * 1024)).toBe("151 MB");
    expect(formatMegabytes(1536 * 1024 * 1024)).toBe("1.536 MB");
  });

  it("rounds rates to whole percents and photos per minute to one decimal", () => {
    expect(formatPercent(2 / 3)).toBe("67%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatRate(0)).toBe("0");
    expect(formatRate(1.5)).toBe("1,5");
    expect(formatRate(12)).toBe("12");
  });

  it("colours the cache hit rate as spec §9: good from 80 %, a warning from 60 %", () => {
    expect(hitRatePalette(0.8)).toBe("green");
    expect(hitRatePalette(0.795)).toBe("green");
    expect(hitRatePalette(0.79)).toBe("orange");
    expect(hitRatePalette(0.6)).toBe("orange");
    expect(hitRatePalette(0.59)).toBe("red");
  });

  it("names every measured stage in Spanish", () => {
    for (const stage of measuredStages) expect(stageLabels[stage]).toMatch(/\S/);
  });

  it("says what the cleanup removed, in words for none and one", () => {
    expect(cleanupMessage({ cleanedFiles: 0, cleanedBytes: 0 })).toBe("No había archivos temporales que eliminar");
    expect(cleanupMessage({ cleanedFiles: 1, cleanedBytes: 512 * 1024 })).toBe("Se eliminó 1 archivo (512 KB)");
    expect(cleanupMessage({ cleanedFiles: 12, cleanedBytes: 30 * 1024 * 1024 })).toBe(
      "Se eliminaron 12 archivos (30 MB)",
    );
  });

  it("knows a fresh runtime measured no photo yet", () => {
    const stages = measuredStages.map((stage) => ({ stage, count: 0, p50Ms: null, p95Ms: null }));
    expect(photosMeasured({ stages })).toBe(false);
    const variants = { stage: "variants" as const, count: 1, p50Ms: 800, p95Ms: 800 };
    expect(photosMeasured({ stages: [...stages.slice(1), variants] })).toBe(true);
  });

  it("scales the memory bars to the highest reading", () => {
    const bars = memoryBars([
      { at: "a", rss: 100, heapUsed: 50 },
      { at: "b", rss: 200, heapUsed: null },
    ]);
    expect(bars.map((bar) => [bar.rssShare, bar.heapShare])).toEqual([
      [0.5, 0.25],
      [1, null],
    ]);
    expect(memoryBars([])).toEqual([]);
  });

  it("shows progress as a whole percent, 0 with nothing to count", () => {
    expect(progressPercent(2, 2)).toBe(100);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(0, 0)).toBe(0);
  });
});
