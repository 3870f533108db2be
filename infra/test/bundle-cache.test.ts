import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { type BuildOptions, buildSync } from "esbuild";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedBundle, cachedOrBuilt, keepBundle, lockOf } from "../lib/bundle-cache";
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
  keepBundle(entry, options, metafile, files);
  return files;
}

const text = (files: { contents: Uint8Array }[] | undefined) =>
  files?.map((file) => Buffer.from(file.contents).toString("utf8"));

describe("the bundle cache", () => {
  beforeEach(() => writeSources("hola"));

  it("hands back the kept bundle while nothing it read has changed", () => {
    expect(cachedBundle(entry, options)).toBeUndefined();
    const built = buildAndKeep();
    const kept = cachedBundle(entry, options);
    expect(text(kept?.files)).toEqual(text(built));
    expect(text(kept?.files)?.join("")).toContain("hola");
    expect(Object.keys(kept?.metafile.inputs ?? {}).some((input) => input.endsWith("greeting.ts"))).toBe(true);
  });

  it("rebuilds when a bundled file changes", () => {
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "lib", "greeting.ts"), 'export const greeting = "buenas";\n');
    expect(cachedBundle(entry, options)).toBeUndefined();
  });

  it("rebuilds when a file appears beside one it read, since an import could now resolve to it", () => {
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "lib", "greeting.js"), 'export const greeting = "otro";\n');
    expect(cachedBundle(entry, options)).toBeUndefined();
  });

  it("rebuilds when a package.json on the way up changes", () => {
    writeFileSync(path.join(scratch, "src", "package.json"), '{ "sideEffects": true }\n');
    buildAndKeep();
    writeFileSync(path.join(scratch, "src", "package.json"), '{ "sideEffects": false }\n');
    expect(cachedBundle(entry, options)).toBeUndefined();
  });

  it("keeps apart bundles built with other options", () => {
    buildAndKeep();
    expect(cachedBundle(entry, { ...options, minify: true })).toBeUndefined();
  });
});

describe("two processes wanting the same bundle", () => {
  const lock = () => lockOf(entry, options);
  const holdLock = (pid: number) => {
    mkdirSync(lock(), { recursive: true });
    writeFileSync(path.join(lock(), "pid"), String(pid));
  };

  beforeEach(() => {
    rmSync(lock(), { recursive: true, force: true });
    // Sources no earlier test kept a bundle of, so only the process under test can provide one.
    writeSources(String(Math.random()));
  });
  afterEach(() => rmSync(lock(), { recursive: true, force: true }));

  it("waits for the process building it and takes what that process kept", async () => {
    // Another process takes the lock, builds for a while and keeps its bundle, as a second synth would.
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { buildSync } from "esbuild";
         import { mkdirSync, rmSync, writeFileSync } from "node:fs";
         import path from "node:path";
         import { keepBundle, lockOf } from ${JSON.stringify(path.join(repoRoot, "infra/lib/bundle-cache.ts"))};
         const [entry, options] = [${JSON.stringify(entry)}, ${JSON.stringify(options)}];
         mkdirSync(lockOf(entry, options), { recursive: true });
         writeFileSync(path.join(lockOf(entry, options), "pid"), String(process.pid));
         await new Promise((resolve) => setTimeout(resolve, 500));
         const result = buildSync({ ...options, write: false, metafile: true });
         const files = result.outputFiles.map((f) => ({ path: "kept-by-the-other.js", contents: f.contents }));
         keepBundle(entry, options, result.metafile, files);
         rmSync(lockOf(entry, options), { recursive: true });`,
      ],
      { cwd: repoRoot, stdio: "inherit" },
    );
    let exitCode: number | null | undefined;
    const exited = new Promise((resolve) => holder.once("exit", resolve)).then((code) => {
      exitCode = code as number | null;
      return code;
    });
    while (!existsSync(path.join(lock(), "pid"))) {
      if (exitCode !== undefined) throw new Error(`the other process ended (${exitCode}) before taking the lock`);
      await delay(20);
    }

    const got = cachedOrBuilt(entry, options, () => {
      throw new Error("built a bundle another process was building");
    });

    expect(got.files.map((file) => file.path)).toEqual(["kept-by-the-other.js"]);
    expect(await exited).toBe(0);
  });

  it("takes over a lock whose process is gone", () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid as number;
    holdLock(gone);
    let builds = 0;

    const got = cachedOrBuilt(entry, options, () => {
      builds += 1;
      return buildBundle();
    });

    expect(builds).toBe(1);
    expect(got.files).toHaveLength(1);
    expect(existsSync(lock())).toBe(false);
  });

  it("builds it anyway when the process holding the lock takes longer than the wait", () => {
    holdLock(process.pid);
    let builds = 0;

    const started = Date.now();
    cachedOrBuilt(
      entry,
      options,
      () => {
        builds += 1;
        return buildBundle();
      },
      300,
    );

    expect(builds).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // The lock is the other process's to remove.
    expect(existsSync(lock())).toBe(true);
  });
});
