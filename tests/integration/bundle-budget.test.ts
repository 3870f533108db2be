import { readFileSync } from "node:fs";
import path from "node:path";
import { constants, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { distDir, searchFirstLoadScripts } from "../support/first-load";

/** Issue 17: what an athlete's phone downloads before the first search result, gzipped. */
const budgetBytes = 250_000;

describe("bundle budget", () => {
  it("keeps the JavaScript of /search's first load within 250 kB gzipped", () => {
    const scripts = searchFirstLoadScripts().map((file) => {
      const content = readFileSync(path.join(distDir, file));
      // The level the build's .gz copies use, i.e. what the runtime sends.
      const gzipped = gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length;
      return { file, bytes: content.length, gzipped };
    });
    const total = scripts.reduce((sum, script) => sum + script.gzipped, 0);
    const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
    console.log(
      `JS before the first search result: ${kB(total)} gzipped of ${kB(budgetBytes)} ` +
        `(${kB(scripts.reduce((sum, script) => sum + script.bytes, 0))} uncompressed)\n` +
        scripts.map((script) => `  ${script.file}: ${kB(script.gzipped)} (${kB(script.bytes)})`).join("\n"),
    );
    expect(scripts.map((script) => script.file)).toContainEqual(expect.stringMatching(/^assets\/index-.+\.js$/));
    expect(total).toBeLessThanOrEqual(budgetBytes);
  });
});
