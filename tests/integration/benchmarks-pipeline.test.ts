import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { runBenchmark } from "../support/run-benchmark";

// CI runs each benchmark in a short mode that checks it still works end to end; its figures are the
// benchmark's business and never asserted here. The read benchmarks are in benchmarks-reads.test.ts:
// two files, so neither holds a worker for all five.
describe("the pipeline's benchmarks, short", () => {
  // The project's own photos, not ../shared/data: a fresh clone elsewhere has no evaluation sets.
  let sources: string;
  beforeAll(async () => {
    sources = await mkdtemp(path.join(tmpdir(), "dorsal-bench-sources-"));
    await writeFile(path.join(sources, "a.jpg"), await makeBibPhoto("3638"));
    await writeFile(path.join(sources, "b.jpg"), await makeBibPhoto("512"));
  });
  afterAll(() => rm(sources, { recursive: true, force: true }));

  it("bench:ingest reports the CPU limit, the efficiency and where the CPU goes", async () => {
    const { last } = await runBenchmark("tests/bench/ingest.ts", [
      ...["--photos", "2", "--rate", "600", "--single", "1", "--zip-mb", "5", "--data", sources],
    ]);
    expect(last).toMatchObject({ photos: 2, rate: 600 });
    for (const field of ["photosPerMinute", "cpuLimitPhotosPerMinute", "efficiency", "p95UploadToSearchableS"]) {
      expect(last[field], field).toBeGreaterThan(0);
    }
    expect(last.peakRssMb).toBeGreaterThan(0);
    const cpu = last.cpuSecondsPerPhoto as Record<string, number>;
    for (const stage of ["decode", "variants", "text", "faces", "stepsTotal", "runtimeTotal"]) {
      expect(cpu[stage], stage).toBeGreaterThan(0);
    }
    expect(Object.keys(cpu)).toEqual(expect.arrayContaining(["prepareAndRecord", "storageTableOrchestration"]));
    expect((last.zip as { photos: number }).photos).toBeGreaterThan(0);
    const single = last.single as Record<string, number>;
    expect(single.megapixels).toBeGreaterThan(23);
    expect(single.medianS).toBeGreaterThan(0);
  }, 600_000);

  it("bench:ingest:against runs a baseline commit's bench beside this checkout's and reports the ratio", async () => {
    const { output, last } = await runBenchmark("tests/bench/ingest-against.ts", [
      ...["--baseline", "HEAD", "--rounds", "1", "--photos", "1", "--data", sources],
    ]);
    expect(last).toMatchObject({ photos: 1, rounds: 1 });
    for (const side of ["baselinePhotosPerMinute", "currentPhotosPerMinute"]) {
      const figures = last[side] as number[];
      expect(figures, side).toHaveLength(1);
      expect(figures[0], side).toBeGreaterThan(0);
    }
    expect(last.ratio).toBeGreaterThan(0);
    expect(output).toMatch(/round 1, baseline \(\w+\): [\d.]+ photos\/min/);
  }, 600_000);

  it("bench:detect measures detect sending the original and the working copy, each in its own process", async () => {
    const { last } = await runBenchmark("tests/bench/detect-aws.ts", ["--photos", "2", "--data", sources]);
    for (const mode of ["original", "copy"]) {
      const figures = last[mode] as Record<string, number>;
      expect(figures, mode).toMatchObject({ mode, photos: 2 });
      for (const field of ["meanBytesSent", "cpuMsPerPhoto", "peakRssMb"])
        expect(figures[field], field).toBeGreaterThan(0);
    }
    expect(last.cpuRatio).toBeGreaterThan(0);
  }, 300_000);

  it("bench:faces describes every face of the sample photos and times searches over 5,000 descriptors", async () => {
    const { last } = await runBenchmark("tests/bench/faces.ts", ["--short"]);
    // sample1 and sample2 show three people each; with no identities, nobody is expected.
    expect(last).toMatchObject({ queries: 6, galleryFaces: 6, searchOver: 5000, recall: 0 });
    for (const field of ["msP95", "describeMsP50", "threshold"]) expect(last[field], field).toBeGreaterThan(0);
  }, 120_000);
});
