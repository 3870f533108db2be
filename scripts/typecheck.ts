import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import path from "node:path";

/**
 * `tsc -p` for each TypeScript project, as many at a time as there are cores: one after the other
 * they took about a minute on 2 cores, most of CI's time outside the tests. Each project's output
 * is printed whole once it ends, so errors never interleave; the exit code is the worst one.
 */
// Longest first, so no lane is left with a long one at the end.
const projects = ["frontend", "infra", "functions", ".", "shared"];
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
      const name = project === "." ? "tests" : project;
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
