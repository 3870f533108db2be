import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const workspaces = ["shared", "functions", "infra", "frontend"];

/**
 * A baseline commit's files (git archive) in a temporary directory, ready to run: with this
 * checkout's packages when its package-lock.json is the same (only the workspaces are its own),
 * else with its own `npm ci`. The caller removes `dir`.
 */
export async function exportBaseline(ref: string): Promise<{ dir: string; commit: string }> {
  const commit = execFileSync("git", ["rev-parse", "--short", ref], { cwd: root, encoding: "utf8" }).trim();
  const dir = await mkdtemp(path.join(tmpdir(), "dorsal-baseline-"));
  execFileSync("sh", ["-c", `git archive ${commit} | tar -x -C "${dir}"`], { cwd: root });
  const lockfile = (checkout: string) => readFile(path.join(checkout, "package-lock.json"), "utf8");
  if ((await lockfile(dir)) === (await lockfile(root))) {
    await mkdir(path.join(dir, "node_modules", "@dorsal"), { recursive: true });
    for (const entry of await readdir(path.join(root, "node_modules"))) {
      if (entry !== "@dorsal")
        await symlink(path.join(root, "node_modules", entry), path.join(dir, "node_modules", entry));
    }
    for (const workspace of workspaces) {
      await symlink(path.join(dir, workspace), path.join(dir, "node_modules", "@dorsal", workspace));
    }
  } else {
    console.log(`installing ${commit}'s own dependencies (npm ci)…`);
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return { dir, commit };
}

/** This checkout's commit, and whether files differ from it (they are part of "current"). */
export function currentCheckout(): { commit: string; dirty: boolean } {
  const git = (args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  return { commit: git(["rev-parse", "--short", "HEAD"]), dirty: git(["status", "--porcelain"]) !== "" };
}
