import { readFileSync } from "node:fs";
import path from "node:path";
import { constants, gzipSync } from "node:zlib";
import { api, type EndpointSpec } from "@dorsal/shared/contract";
import { describe, expect, it } from "vitest";
import { distDir, searchFirstLoadScripts } from "../support/first-load";

/** Issue 17: what an athlete's phone downloads before the first search result, gzipped. */
const budgetBytes = 250_000;

/**
 * The contract's groups whose routes /search and its dialogs call (events: the event picker; photos:
 * the bib search and an athlete's download; pricing and settings: the prices shown; codes: the
 * download code; browse: the photo pages). A group comes whole, each route's path with it.
 */
const searchGroups = ["browse", "codes", "events", "photos", "pricing", "settings"];

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

  // Issue 20: the whole contract in the index made every feature's new route cost /search bytes.
  it("holds the routes of only the contract groups /search calls", () => {
    const code = searchFirstLoadScripts()
      .map((file) => readFileSync(path.join(distDir, file), "utf8"))
      .join("\n");
    // A path is a string literal of its own in the minified code, whatever its quotes.
    const shipped = ({ path: route }: EndpointSpec) =>
      ['"', "'", "`"].some((quote) => code.includes(`${quote}${route}${quote}`));
    const groupsShipped = Object.entries(api)
      .filter(([, routes]) => Object.values<EndpointSpec>(routes).some(shipped))
      .map(([group]) => group)
      .sort();
    expect(groupsShipped).toEqual(searchGroups);
  });
});
