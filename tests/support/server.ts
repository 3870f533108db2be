import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { bundleRuntime, runtimeBundleEntry } from "../../functions/local/bundle";
import { waitFor } from "./api";
import { freshBundleVariable } from "./runtime-bundle";
import type { SharedDorsal } from "./shared-runtime";
import { testAdmin } from "./test-admin";

export interface RunningDorsal {
  url: string;
  adminEmail: string;
  adminPassword: string;
  dataDir: string;
  /** The runtime's process id (the ingestion benchmark reads its memory from /proc). */
  pid: number;
  /** Everything the process printed so far (for assertions and failure messages). */
  output(): string;
  /**
   * Until the process has printed a match of `pattern`. Serving does not mean it has printed all it
   * prints on starting: stdout and stderr are two pipes, and lines written one after the other can
   * reach this process in separate reads.
   */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  stop(): Promise<number | null>;
  /** Kills the process with SIGKILL (no shutdown at all) and keeps the data dir, to test a crash. */
  kill(): Promise<void>;
  /** For a process told to kill itself (FAULT_KILL_AT): resolves with the signal it died of. */
  crash(): Promise<NodeJS.Signals | null>;
}

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Made from the sources as they are now, so a test never runs a stale bundle: once per `vitest run`
 * when its global setup made it, else once per process. A baseline checkout's benchmark inherits the
 * variable too, and its own entry differs, so it bundles its own code.
 */
let bundled: Promise<string> | undefined;
const runtimeBundle = () => {
  bundled ??=
    process.env[freshBundleVariable] === runtimeBundleEntry ? Promise.resolve(runtimeBundleEntry) : bundleRuntime();
  return bundled;
};

/**
 * Starts the embedded runtime exactly as `npm start` does, from its bundle (functions/local/bundle.ts;
 * minus the frontend build, which `npm test` runs first), on a free port with a fresh data dir, and
 * waits until it serves. Another checkout (`repoRoot`) runs from its sources under tsx, which works
 * for any version of the project.
 */
export async function startDorsal(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    generatedAdminPassword?: boolean;
    /** Another checkout to run (the first-load benchmark's baseline); this one by default. */
    repoRoot?: string;
  } = {},
): Promise<RunningDorsal> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "dorsal-test-")));
  const { email: adminEmail, password: adminPassword } = testAdmin;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    DATA_DIR: dataDir,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: "warn",
    // Tests and benchmarks call from one address, far faster than a person (tests/integration/rate-limits.test.ts
    // turns the limits on).
    RATE_LIMITS: "off",
    // As `npm start` sets it (package.json): see docs/benchmarks.md, Ingest.
    MALLOC_ARENA_MAX: "2",
    MALLOC_MMAP_THRESHOLD_: "131072",
    ...options.env,
  };
  if (options.generatedAdminPassword) delete env.ADMIN_PASSWORD;
  const program = options.repoRoot
    ? ["--import", "tsx", "functions/local/main.ts"]
    : ["--enable-source-maps", await runtimeBundle()];
  const child = spawn(process.execPath, program, {
    cwd: options.repoRoot ?? root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  killedWithThisProcess(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let stopping = false;
  // A runtime that dies mid-test fails the test with "fetch failed" only; its own last words say why.
  child.once("exit", (code, signal) => {
    if (!stopping)
      console.error(`Dorsal exited unexpectedly (code ${code}, signal ${signal}):\n${output.slice(-20_000)}`);
  });
  const url = await waitForUrl(child, () => output);
  return {
    url,
    adminEmail,
    adminPassword,
    dataDir,
    pid: child.pid ?? 0,
    output: () => output,
    printed: (pattern) =>
      waitFor(async () => pattern.exec(output) ?? undefined, 30_000, `the runtime to print ${pattern}`),
    kill: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    crash: () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
      return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    },
    stop: async () => {
      stopping = true;
      const code = await stopChild(child);
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Runtimes started by this process that have not exited yet. */
const liveRuntimes = new Set<ChildProcess>();
const killLiveRuntimes = () => {
  for (const child of liveRuntimes) child.kill("SIGKILL");
};

/**
 * A process that dies on an uncaught error skips its `finally` and `afterAll`, and its runtimes would
 * keep serving, orphaned: a crashed bench:ingest left one running for an hour. The exit listener is
 * only there while a runtime is, so suites that re-import this module do not pile listeners up.
 */
function killedWithThisProcess(child: ChildProcess): void {
  liveRuntimes.add(child);
  if (liveRuntimes.size === 1) process.on("exit", killLiveRuntimes);
  child.once("exit", () => {
    liveRuntimes.delete(child);
    if (liveRuntimes.size === 0) process.off("exit", killLiveRuntimes);
  });
}

function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/[\w.]+:\d+)/.exec(output());
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 100);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`Dorsal exited with code ${code} before serving:\n${output()}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<number | null> {
  // A killed child has a signal and no exit code; either way it will not exit again.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", (code) => {
      clearTimeout(kill);
      resolve(code);
    });
    child.kill("SIGINT");
  });
}

/** The `integration-shared` project's runtime (tests/support/shared-runtime.ts); a suite keeps to its own events and users there. */
export function sharedDorsal(): SharedDorsal {
  const shared = inject("sharedDorsal");
  // A suite outside that project would otherwise fail on `undefined.url`.
  if (!shared)
    throw new Error("No shared runtime in this project: list the suite in vitest.config.ts's sharedWorkerSuites");
  return shared;
}
