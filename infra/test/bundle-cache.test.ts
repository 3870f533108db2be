import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BuildOptions, buildSync } from "esbuild";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { cachedBundle, keepBundle } from "../lib/bundle-cache";
import { repoRoot } from "../lib/dorsal-app";

// Inside the repository, as real entries are: the cache watches directories up to its root.
const scratchRoot = path.join(repoRoot, "node_modules", ".cache");
mkdirSync(scratchRoot, { recursive: true });
const scratch = mkdtempSync(path.join(scratchRoot, "bundle-cache-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const entry = path.join(scratch, "src", "handler.ts");
const options: BuildOptions = {
  entryPoints: { index: entry },
  outdir: path.join(scratch, "out"),
  bundle: true,
  format: "esm",
  platform: "node",
  logLevel: "silent",
};

/** The entry and the module it imports, saying `greeting`. */
function writeSources(greeting: string) {
  rmSync(path.join(scratch, "src"), { recursive: true, force: true });
  mkdirSync(path.join(scratch, "src", "lib"), { recursive: true });
  writeFileSync(entry, 'import { greeting } from "./lib/greeting";\nexport const handler = () => greeting;\n');
  writeFileSync(
    path.join(scratch, "src", "lib", "greeting.ts"),
    `export const greeting = ${JSON.stringify(greeting)};\n`,
  );
}

function buildBundle() {
  const result = buildSync({ ...options, write: false, metafile: true } as const);
  const files = result.outputFiles.map((file) => ({
    path: path.relative(path.join(scratch, "out"), file.path),
    contents: file.contents,
  }));
  return { metafile: result.metafile, files };
}

function buildAndKeep() {
  const { metafile, files } = buildBundle();
  keepBundle(options, metafile, files);
  return files;
}

const text = (files: { contents: Uint8Array }[] | undefined) =>
  files?.map((file) => Buffer.from(file.contents).toString("utf8"));

describe("the bundle cache", () => {
  beforeEach(() => writeSources("hola"));

  it("hands back the kept bundle while nothing it read has changed", () => {
    expect(cachedBundle(options)).toBeUndefined();
    const built = buildAndKeep();
    const kept = cachedBundle(options);
    expect(text(kept?.files)).toEqual(text(built));
    expect(text(kept?.files)?.join("")).toContain("hola");
    expect(Object.keys(kept?.metafile.inputs ?? {}).some((input) => input.endsWith("greeting.ts"))).toBe(true);
  });

  it("rebuilds when a bundled file changes", () => {
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "lib", "greeting.ts"), 'export const greeting = "buenas";\n');
    expect(cachedBundle(options)).toBeUndefined();
  });

  it("rebuilds when a file appears beside one it read, since an import could now resolve to it", () => {
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "lib", "greeting.js"), 'export const greeting = "otro";\n');
    expect(cachedBundle(options)).toBeUndefined();
  });

  it("rebuilds when a package.json on the way up changes", () => {
    writeFileSync(path.join(scratch, "src", "package.json"), '{ "sideEffects": true }\n');
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "package.json"), '{ "sideEffects": false }\n');
    expect(cachedBundle(options)).toBeUndefined();
  });

  it("keeps apart bundles built with other options", () => {
    buildAndKeep();
    expect(cachedBundle({ ...options, minify: true })).toBeUndefined();
  });
});
