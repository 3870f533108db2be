import { describe, expect, it } from "vitest";
import { runBenchmark } from "../support/run-benchmark";

// CI runs each benchmark in a short mode that checks it still works end to end; its figures are the
// benchmark's business and never asserted here (the pipeline's: benchmarks-pipeline.test.ts).
describe("the read benchmarks, short", () => {
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
