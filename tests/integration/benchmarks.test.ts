import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs a benchmark script as `npm run bench:*` would; returns its output and its last line, parsed. */
async function runBenchmark(script: string, args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  expect(code, output).toBe(0);
  return { output, last: JSON.parse(output.trim().split("\n").at(-1) ?? "") as Record<string, unknown> };
}

// CI runs each benchmark in a short mode that checks it still works end to end; its figures are the
// benchmark's business and never asserted here.
describe("benchmarks, short", () => {
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
      ...["--photos", "2", "--rate", "600", "--single", "1", "--zip-mb", "10", "--data", sources],
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

  it("bench:search seeds, loads every endpoint without errors and ends with one JSON line of figures", async () => {
    const { output, last } = await runBenchmark("tests/bench/search.ts", [
      ...["--photos", "200", "--bibs", "50", "--connections", "10", "--seconds", "1"],
    ]);
    const endpoints = ["search", "bibPhotos", "bibGrid", "eventsWithPhotos", "events"];
    expect(Object.keys(last)).toEqual(endpoints);
    for (const name of endpoints) {
      const figures = last[name] as Record<string, number>;
      expect(Object.keys(figures), name).toEqual(
        expect.arrayContaining(["p50Ms", "p97_5Ms", "p99Ms", "rps", "errors", "cpuMsPerRequest"]),
      );
      expect(figures.errors, name).toBe(0);
      expect(figures.rps, name).toBeGreaterThan(0);
      // Each route's ceiling against what a crowd's request of it costs here.
      expect(figures.throttle, name).toMatchObject({
        rate: expect.any(Number),
        cpuMs: expect.any(Number),
        coresAtCeiling: expect.any(Number),
        withinBudget: expect.any(Boolean),
      });
    }
    // A bib's reads have first looks: nothing read or signed yet for the bib.
    for (const name of ["search", "bibPhotos"]) {
      expect((last[name] as Record<string, number>).firstLookCpuMs, name).toBeGreaterThan(0);
    }
    expect(output).toMatch(/seeding: \d+(\.\d)? s/);
    expect(output).toMatch(/throttle sizing: /);
  }, 300_000);

  it("bench:scale seeds both events, times every read, the recount and the deletion, and ends with one JSON line of figures", async () => {
    const { output, last } = await runBenchmark("tests/bench/scale.ts", [
      ...["--photos", "400", "--bibs", "80", "--sales", "20", "--users", "40", "--small-photos", "100"],
      ...["--requests", "5", "--concurrency", "2"],
    ]);
    const endpoints = last.endpoints as Record<string, { ratioP95: number; big: { sequential: { p95Ms: number } } }>;
    expect(Object.keys(endpoints)).toEqual(
      expect.arrayContaining(["search", "bib grid", "analytics 30d event", "dashboard", "failed list", "users list"]),
    );
    for (const [name, figures] of Object.entries(endpoints)) {
      expect(figures.big.sequential.p95Ms, name).toBeGreaterThan(0);
      expect(figures.ratioP95, name).toBeGreaterThan(0);
    }
    expect(last.recount).toMatchObject({ smallMs: expect.any(Number), bigMs: expect.any(Number) });
    // Each event deleted to the end in the background: every photo and bib link counted gone.
    const deletion = last.deletion as Record<"small" | "big", { ms: number; deleted: { photos: number } }>;
    expect(deletion.small).toMatchObject({ ms: expect.any(Number), deleted: { photos: 100 } });
    expect(deletion.big).toMatchObject({ ms: expect.any(Number), deleted: { photos: 400 } });
    expect(output).toMatch(/seeding: \d+(\.\d)? s/);
  }, 300_000);
});
