import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs a benchmark script as `npm run bench:*` would; returns its output and its last line, parsed. */
export async function runBenchmark(script: string, args: string[]) {
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
