import { slaRule } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { runnerWearing, scriptedWorld } from "../testing/scripted-world";
import { cacheStats, cleanupTemp, performanceStats, queueStats } from "./performance";
import { createPipelineTasks } from "./pipeline";
import { storagePaths } from "./storage-paths";

describe("the performance dashboard's figures, from what the pipeline measured", () => {
  it("gives each stage's count and percentiles over the last hour, and the rate photos became searchable", async () => {
    const { deps, process } = await scriptedWorld();
    for (const bib of ["101", "102", "103"]) await process(runnerWearing(bib));

    const stats = await performanceStats(deps);

    expect(stats.stages.map(({ stage, count }) => `${stage} ${count}`)).toEqual([
      "variants 3",
      "detect 3",
      "record 3",
      "searchable 3",
    ]);
    for (const stage of stats.stages) expect(stage.p95Ms).toBeGreaterThanOrEqual(stage.p50Ms ?? 0);
    expect(stats.photosPerMinute).toEqual({ last5Minutes: 0.6, lastHour: 0.1 });
    expect(stats).toMatchObject({ totalPhotosProcessed: 3, successRate: 1, alerts: [] });
    // Variants noted the process's memory after each photo.
    expect(stats.memoryTrend.length).toBeGreaterThan(0);
    expect(stats.peakMemoryUsage).toBeGreaterThan(0);
  });

  it("raises the SLA alert when the p95 of arrival → searchable passes a minute, critical past two", async () => {
    const { deps } = await scriptedWorld();
    const searchable = (ms: number) => deps.metrics.put("StageMs", ms, { stage: "searchable" });
    for (let i = 0; i < slaRule.minimumPhotos; i++) searchable(70_000);
    const warning = await performanceStats(deps);
    for (let i = 0; i < slaRule.minimumPhotos * 4; i++) searchable(130_000);

    const critical = await performanceStats(deps);

    expect(warning.alerts).toMatchObject([
      { alertType: "searchable_p95", severity: "warning", metadata: { p95Ms: 70_000, thresholdMs: 60_000 } },
    ]);
    expect(warning.alerts[0]?.message).toMatch(/tardó hasta 70 s en poder buscarse \(el objetivo es 60 s\)/);
    expect(critical.alerts).toMatchObject([{ severity: "critical", metadata: { p95Ms: 130_000 } }]);
  });

  it("raises no alert on too few photos to mean anything", async () => {
    const { deps } = await scriptedWorld();
    for (let i = 0; i < slaRule.minimumPhotos - 1; i++) {
      deps.metrics.put("StageMs", 300_000, { stage: "searchable" });
    }

    expect((await performanceStats(deps)).alerts).toEqual([]);
  });

  it("groups failed photos by reason, and counts the queue from the events' counters", async () => {
    const { deps, event, process } = await scriptedWorld();
    await process(runnerWearing("7"));
    const tasks = createPipelineTasks(deps);
    const causes = ["La foto no se puede leer", "motor caído", "La foto no se puede leer"];
    for (const [index, cause] of causes.entries()) {
      const key = storagePaths.original(event.id, `rota${index}`, "jpg");
      await deps.objects.put("originals", key, Buffer.from("no es una foto"), "image/jpeg", 14);
      await tasks
        .prepare({ bucket: deps.objects.bucketName("originals"), key, size: 14, version: "1" })
        .catch(() => {});
      await tasks.fail({ key, error: { Error: "PermanentError", Cause: cause } });
    }

    const [stats, queue] = await Promise.all([performanceStats(deps), queueStats(deps)]);

    expect(stats.failuresByReason).toEqual([
      { reason: "La foto no se puede leer", count: 2 },
      { reason: "motor caído", count: 1 },
    ]);
    expect(stats.successRate).toBe(0.25);
    expect(queue).toMatchObject({ completed: 1, failed: 3, pending: 0, waiting: null, processing: null });
  });

  it("computes the URL cache's hit rate from what the signer reported", async () => {
    const { deps } = await scriptedWorld();
    deps.metrics.put("UrlCacheHits", 30);
    deps.metrics.put("UrlCacheMisses", 10);
    deps.metrics.put("UrlCacheEvictions", 2);
    deps.metrics.put("UrlCacheEntries", 38);
    deps.metrics.put("UrlCacheBytes", 38_000);

    expect(await cacheStats(deps)).toEqual({
      hits: 30,
      misses: 10,
      evictions: 2,
      hitRate: 0.75,
      totalEntries: 38,
      totalSize: 38_000,
    });
  });

  it("cleans the download ZIPs no link can fetch any more, and keeps the rest", async () => {
    const { deps, clock } = await scriptedWorld();
    const today = clock.now().toISOString().slice(0, 10);
    const zip = Buffer.from("PK zip");
    await deps.objects.put("originals", "descargas/2026-12-05/abc/fotos.zip", zip, "application/zip", zip.length);
    await deps.objects.put("originals", `descargas/${today}/def/fotos.zip`, zip, "application/zip", zip.length);

    const cleaned = await cleanupTemp(deps);

    expect(cleaned).toEqual({ cleanedFiles: 1, cleanedBytes: zip.length });
    expect((await deps.objects.list("originals", "descargas/")).objects.map((object) => object.key)).toEqual([
      `descargas/${today}/def/fotos.zip`,
    ]);
  });
});
