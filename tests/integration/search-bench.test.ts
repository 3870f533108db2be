import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const endpoints = ["search", "bibPhotos", "bibGrid", "eventsWithPhotos", "events"];
const figureKeys = ["p50Ms", "p97_5Ms", "p99Ms", "rps", "errors", "cpuMsPerRequest"];

/**
 * `npm run bench:search` in a short mode (few photos, 1 s of load per endpoint): it must work —
 * seed, answer every endpoint without errors, print its JSON last line. Its figures are the
 * benchmark's business, never asserted here.
 */
describe("bench:search, short", () => {
  it("seeds, loads every endpoint without errors and ends with one JSON line of figures", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "tests/bench/search.ts",
        "--photos",
        "200",
        "--bibs",
        "50",
        "--connections",
        "10",
        "--seconds",
        "1",
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, output).toBe(0);

    const lines = output.trim().split("\n");
    const figures = JSON.parse(lines.at(-1) ?? "") as Record<string, Record<string, number>>;
    expect(Object.keys(figures)).toEqual(endpoints);
    for (const name of endpoints) {
      const endpoint = figures[name] ?? {};
      expect(Object.keys(endpoint).sort(), name).toEqual([...figureKeys].sort());
      expect(endpoint.errors, name).toBe(0);
      expect(endpoint.rps, name).toBeGreaterThan(0);
    }
    expect(output).toMatch(/seeding: \d+(\.\d)? s/);
  });
});
