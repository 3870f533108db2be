import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const source = import.meta.dirname;

/** Every file of the browser's sources, relative to frontend/src. */
const files = readdirSync(source, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file));
const importing = (pattern: RegExp) =>
  files.filter((file) => pattern.test(readFileSync(path.join(source, file), "utf8"))).sort();

// Issue 20: a screen imports the contract groups it calls ("@dorsal/shared/contract/users"): the
// whole `api` would join the chunk of whatever imports it, for /search its first load.
describe("the browser's imports of the route contract", () => {
  it("name a group, never the whole contract", () => {
    expect(importing(/["']@dorsal\/shared\/contract\/[\w-]+["']/).length).toBeGreaterThan(30);
    expect(importing(/["']@dorsal\/shared\/contract["']/)).toEqual([]);
  });
});
