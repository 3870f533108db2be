import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeBibPhoto } from "../support/bib-photo";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs a benchmark script as `npm run bench:*` would and returns its last line, parsed. */
async function lastJsonLine(script: string, args: string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${out}\n${err}`);
  return JSON.parse(out.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
}

// The project's own photos, not ../shared/data: a fresh clone elsewhere has no evaluation sets.
let sources: string;
beforeAll(async () => {
  sources = await mkdtemp(path.join(tmpdir(), "dorsal-bench-sources-"));
  await writeFile(path.join(sources, "a.jpg"), await makeBibPhoto("3638"));
  await writeFile(path.join(sources, "b.jpg"), await makeBibPhoto("512"));
});
afterAll(() => rm(sources, { recursive: true, force: true }));

// Figures are the benchmark's business; CI only checks that the short mode still runs end to end.
it("bench:ingest works in its short mode and reports the CPU limit, the efficiency and where the CPU goes", async () => {
  const result = await lastJsonLine("tests/bench/ingest.ts", [
    "--photos",
    "2",
    "--rate",
    "600",
    "--zip-mb",
    "10",
    "--data",
    sources,
  ]);
  expect(result).toMatchObject({ photos: 2, rate: 600 });
  for (const field of [
    "photosPerMinute",
    "cpuLimitPhotosPerMinute",
    "efficiency",
    "p95UploadToSearchableS",
    "peakRssMb",
  ]) {
    expect(result[field], field).toBeGreaterThan(0);
  }
  const cpu = result.cpuSecondsPerPhoto as Record<string, number>;
  for (const stage of ["decode", "variants", "text", "faces", "stepsTotal", "runtimeTotal"]) {
    expect(cpu[stage], stage).toBeGreaterThan(0);
  }
  expect(cpu).toHaveProperty("prepareAndRecord");
  expect(cpu).toHaveProperty("storageTableOrchestration");
  expect((result.zip as { photos: number }).photos).toBeGreaterThan(0);
}, 600_000);
