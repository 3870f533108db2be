import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { writePreparedModels } from "../src/adapters/local/prepared-models";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Where `npm start` and the tests run the runtime from (git-ignored). */
export const runtimeBundleDir = path.join(repoRoot, "dist", "runtime");
export const runtimeBundleEntry = path.join(runtimeBundleDir, "main.mjs");

/**
 * Our own TypeScript (functions/ and the @dorsal/shared workspace) in one file; every package from
 * node_modules stays outside and is loaded by Node itself. Node then loads the dependencies without
 * tsx's loader hooks in the way: a start under `node --import tsx` spent ~4 CPU-s, most of it in
 * those hooks (docs/testing.md), and every test starts runtimes.
 */
const packagesStayOutside: Plugin = {
  name: "packages-stay-outside",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@dorsal/") ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles the local runtime and its two worker threads' entries into `runtimeBundleDir`. The
 * workers are found beside the main file by the same relative URLs as in the sources
 * (`./ocr-worker.mjs`, `./faces-worker.mjs`), where the sources' files of those names register tsx
 * first. Each file is written under a temporary name and renamed, so a process starting the
 * runtime while another rebuilds it reads either the old file or the new one, never half of one.
 * The recognition models go beside them, made ready to load (prepared-models.ts).
 */
export async function bundleRuntime(): Promise<string> {
  // Before the code that reads them, so a bundle never meets models older than itself.
  await writePreparedModels(path.join(runtimeBundleDir, "models"));
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: {
      main: "functions/local/main.ts",
      "ocr-worker": "functions/src/adapters/local/ocr/worker.ts",
      "faces-worker": "functions/src/adapters/local/faces/worker.ts",
    },
    outdir: runtimeBundleDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    plugins: [packagesStayOutside],
    write: false,
    logLevel: "warning",
  });
  await mkdir(runtimeBundleDir, { recursive: true });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await Promise.all(
    result.outputFiles.map(async (file) => {
      await writeFile(`${file.path}${suffix}`, file.contents);
      await rename(`${file.path}${suffix}`, file.path);
    }),
  );
  return runtimeBundleEntry;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await bundleRuntime();
}
