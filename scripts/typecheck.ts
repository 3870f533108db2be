import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import path from "node:path";

/**
 * `tsc -p` for each TypeScript project, as many at a time as there are cores. Each project's output
 * is printed whole once it ends, so errors never interleave; the exit code is the worst one.
 *
 * Two projects: the browser's (frontend, with the DOM) and Node's, the root one, which takes in
 * functions, shared and infra with the same options as their own tsconfig.json (kept for editors
 * and esbuild). Checked one workspace at a time, every program re-checked the functions and shared
 * files it imports (five projects: 67.6 s and 126 user CPU-s; these two: 43.2 s and 79, docs/testing.md).
 */
const projects = ["frontend", "."];
const root = path.resolve(import.meta.dirname, "..");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");

function check(project: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("close", (code) => {
      const name = project === "." ? "node (functions, shared, infra, tests, scripts)" : project;
      process.stdout.write(code === 0 ? `tsc ${name}: ok\n` : `tsc ${name}: failed\n${output}`);
      resolve(code ?? 1);
    });
  });
}

const queue = [...projects];
const codes = await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
    const lane: number[] = [];
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) lane.push(await check(project));
    return lane;
  }),
);
process.exitCode = Math.max(0, ...codes.flat());
