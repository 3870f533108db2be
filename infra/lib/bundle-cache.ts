import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, version as esbuildVersion, type Metafile } from "esbuild";

/**
 * Bundles kept between processes. A stack's Lambda bundles are one esbuild call (`LambdaBundles`):
 * 1.5 s to build, 0.17 s to read back kept (2026-12-02, this machine), and CI's infra tests and its
 * `npm run synth` synthesize the same stack in six processes.
 *
 * A kept bundle is used only when nothing esbuild could have read for it changed: every bundled
 * file byte for byte, every `package.json` and `tsconfig.json` on the way up from them (exports,
 * side effects, paths), and the file names in each of those directories (a new file can change
 * what an import resolves to). The key adds the build options (entries included), esbuild's
 * version and the lockfile. Clear it with `rm -rf node_modules/.cache/dorsal-bundles`.
 */
export const repoRoot = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const cacheRoot = path.join(repoRoot, "node_modules", ".cache", "dorsal-bundles");

export interface BundleFile {
  /** Relative to the build's outdir. */
  path: string;
  contents: Uint8Array;
}

interface Manifest {
  files: string[];
  directories: string[];
  fingerprint: string;
  outputs: string[];
  metafile: Metafile;
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

// A synth's bundles share most of their inputs (the AWS SDK, zod, the app's own modules): each
// file is hashed once per process, again only if its size or modification time moved.
const fileHashes = new Map<string, { stamp: string; hash: string }>();
function hashOfFile(file: string): string {
  const { size, mtimeMs, ino } = statSync(file);
  const stamp = `${ino}:${size}:${mtimeMs}`;
  const known = fileHashes.get(file);
  if (known?.stamp === stamp) return known.hash;
  const hash = sha256(readFileSync(file));
  fileHashes.set(file, { stamp, hash });
  return hash;
}

const resolutionFiles = ["package.json", "tsconfig.json"];

const insideRepo = (dir: string) => dir === repoRoot || dir.startsWith(`${repoRoot}${path.sep}`);

/** The directories from each input up to the repository's root, and the files among them to hash. */
function whatWasRead(inputs: Iterable<string>): { files: string[]; directories: string[] } {
  const files = new Set<string>();
  const directories = new Set<string>();
  for (const input of inputs) {
    files.add(input);
    for (let dir = path.dirname(input); insideRepo(dir) && !directories.has(dir); dir = path.dirname(dir)) {
      directories.add(dir);
      for (const name of resolutionFiles) {
        const candidate = path.join(dir, name);
        if (existsSync(candidate)) files.add(candidate);
      }
    }
  }
  return { files: [...files].sort(), directories: [...directories].sort() };
}

/** Undefined when a file is gone or a directory unreadable: the bundle is then rebuilt. */
function fingerprintOf(files: readonly string[], directories: readonly string[]): string | undefined {
  const hash = createHash("sha256");
  try {
    for (const file of files) hash.update(`${file}\0${hashOfFile(file)}\n`);
    for (const dir of directories) hash.update(`${dir}/\0${readdirSync(dir).sort().join("\0")}\n`);
  } catch {
    return undefined;
  }
  return hash.digest("hex");
}

function keyOf(options: BuildOptions): string {
  const lockfile = path.join(repoRoot, "package-lock.json");
  return sha256(
    JSON.stringify({
      options,
      esbuild: esbuildVersion,
      lockfile: existsSync(lockfile) ? hashOfFile(lockfile) : "",
    }),
  );
}

/**
 * The bundle kept for these options while nothing it read has changed. Two processes that miss at
 * once both build (one call for a whole stack, ~1.5 s) and both keep theirs; `keepBundle` lets one
 * copy win whole.
 */
export function cachedBundle(options: BuildOptions): { metafile: Metafile; files: BundleFile[] } | undefined {
  const dir = path.join(cacheRoot, keyOf(options));
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
    if (fingerprintOf(manifest.files, manifest.directories) !== manifest.fingerprint) return undefined;
    const files = manifest.outputs.map((output) => ({
      path: output,
      contents: readFileSync(path.join(dir, "out", output)),
    }));
    return { metafile: manifest.metafile, files };
  } catch {
    // Missing, or being replaced by another process at this moment.
    return undefined;
  }
}

export function keepBundle(options: BuildOptions, metafile: Metafile, files: BundleFile[]): void {
  // The metafile names files relative to the build's working directory.
  const inputs = Object.keys(metafile.inputs).map((input) => path.resolve(options.absWorkingDir ?? "", input));
  const { files: read, directories } = whatWasRead(inputs);
  const fingerprint = fingerprintOf(read, directories);
  if (!fingerprint) return;
  const dir = path.join(cacheRoot, keyOf(options));
  // Written aside and renamed into place, so a reader never sees half a bundle.
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  for (const file of files) {
    const target = path.join(staging, "out", file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  const manifest: Manifest = { files: read, directories, fingerprint, outputs: files.map((f) => f.path), metafile };
  writeFileSync(path.join(staging, "manifest.json"), JSON.stringify(manifest));
  // An older bundle under the key is moved aside in one step before it goes, so the rename below
  // never meets a half-deleted folder; when another process got its bundle there first, ours goes.
  const stale = `${staging}.stale`;
  try {
    renameSync(dir, stale);
  } catch {
    // Nothing kept under this key yet.
  }
  rmSync(stale, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}
