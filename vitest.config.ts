import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The tests' own AWS SDK clients run on Node 20 on purpose, as the runtime does (functions/local/main.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/**
 * Integration suites that share what their process holds: they use the shared runtime of their
 * project (tests/support/shared-runtime.ts) or no runtime, and whatever they start, spawn or change
 * (an in-process runtime, the preflight CLI, an env variable) they stop or restore before they end.
 * Without isolation a worker keeps the modules it loaded, so a file does not re-import the AWS SDK,
 * sharp and zod: both integration projects took 14 % less wall and CPU time (docs/testing.md). The
 * suites that restart, kill or crash runtimes of their own stay in the isolated `integration`
 * project: their cost is those runtimes, and sharing a worker did not lower it.
 */
const sharedWorkerSuites = [
  "access-matrix",
  "account",
  "admin-search",
  "analytics-report",
  "assignments",
  "athletes",
  "bundle-budget",
  "cached-reads",
  "download-codes",
  "drive",
  "duplicates",
  "dynalite-repair",
  "expiry",
  "face-search",
  "heic",
  "lean-indexes",
  "migrate",
  "multipart",
  "object-stores",
  "performance",
  "pipeline",
  "preflight",
  "presigned-urls",
  "previews",
  "pricing",
  "repositories",
  "runtime-in-process",
  "s3rver-repair",
  "scale-reads",
  "start-list",
  "table-endpoint",
].map((name) => `tests/integration/${name}.test.ts`);

/**
 * One `npm test` runs every layer. Browser tests and the isolated integration tests start the
 * embedded runtime as a child process, exactly as `npm start` does, and talk to it over HTTP; each
 * such file has its own runtime and data dir, so files run side by side. A file spends part of its
 * time waiting on a poll, a timer or a photo in the pipeline: with one file per core the browser
 * project left the 2 cores 24 % idle (504 busy CPU-s in 331 s), with one file more 11 % (475 in
 * 267 s), and the whole run went from 606 to 552 s (docs/testing.md, 2026-12-07).
 */
export default defineConfig({
  test: {
    maxWorkers: availableParallelism() + 1,
    globalSetup: ["tests/support/runtime-bundle.ts"],
    reporters: ["default", "./tests/support/project-times.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "shared/src/**/*.test.ts",
            "functions/src/**/*.test.ts",
            "functions/local/**/*.test.ts",
            "frontend/src/**/*.test.ts",
          ],
          environment: "node",
          // Pure logic, with no module state a file leaves behind (stubbed globals and env are
          // restored after each test): sharing each worker's loaded modules instead of reloading
          // them for every file halved the project's CPU time (86 → 42 CPU-s, 2026-11-27).
          isolate: false,
          // A timeout catches a hang, it does not measure speed (benchmarks do): the engine and image
          // tests spend seconds of CPU, and on a loaded 2-core machine vitest's 5 s default failed them.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "infra",
          include: ["infra/test/**/*.test.ts"],
          // Each file imports aws-cdk-lib (~4 s), so a worker keeps it for the next file: 109–119 → 90–93
          // CPU-s on a fresh clone (2026-12-02). What CDK keeps between apps is keyed on the output
          // folder, which setup.ts makes anew for every file; the one spy restores itself.
          isolate: false,
          setupFiles: ["infra/test/setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: sharedWorkerSuites,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "integration-shared",
          include: sharedWorkerSuites,
          globalSetup: ["tests/support/shared-runtime.ts"],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "security",
          include: ["tests/security/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          // Their runtimes and browsers are child processes each file starts and stops; a worker keeps
          // only the modules (playwright-core, sharp, the support code) for its next file: import
          // 20.5 → 6.1 s summed, 639 → 589 CPU-s for the project alone (2026-12-02, one run each).
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
