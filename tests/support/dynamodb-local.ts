/**
 * `npm run test:dynamodb-local`: the repository suite (tests/integration/repositories.test.ts)
 * against AWS's official DynamoDB Local instead of dynalite. Opt-in and self-contained: without
 * Java it says so and exits 0; with Java it installs `amplify-dynamodb-simulator` (which ships
 * DynamoDBLocal.jar) on demand into a cache dir outside the repo, never into package.json, since
 * its dependency tree would slow every install.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { homedir } from "node:os";
import path from "node:path";

const cacheDir = process.env.DORSAL_DYNAMODB_LOCAL_CACHE ?? path.join(homedir(), ".cache", "dorsal-dynamodb-local");
const emulatorDir = path.join(cacheDir, "node_modules", "amplify-dynamodb-simulator", "emulator");
const jar = path.join(emulatorDir, "DynamoDBLocal.jar");
const libDir = path.join(emulatorDir, "DynamoDBLocal_lib");

function hasJava(): boolean {
  const probe = spawnSync("java", ["-version"], { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
}

async function ensureEmulator(): Promise<void> {
  if (existsSync(jar) && existsSync(libDir)) return;
  await mkdir(cacheDir, { recursive: true });
  console.log(`Installing amplify-dynamodb-simulator (DynamoDB Local) into ${cacheDir} ...`);
  const install = spawnSync(
    "npm",
    ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", cacheDir, "amplify-dynamodb-simulator@2"],
    { stdio: "inherit" },
  );
  if (install.status !== 0 || !existsSync(jar) || !existsSync(libDir)) {
    throw new Error(`Could not install DynamoDB Local: ${jar} or ${libDir} is missing`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** DynamoDB Local answers an unsigned POST with a 400 once it listens; any HTTP answer will do. */
async function waitUntilAnswering(endpoint: string, java: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (java.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${java.exitCode}`);
    try {
      await fetch(endpoint, { method: "POST" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`DynamoDB Local did not answer at ${endpoint} within 60 s`);
}

async function main(): Promise<number> {
  if (!hasJava()) {
    console.log("test:dynamodb-local: `java` is not on PATH, so DynamoDB Local cannot run; skipped (nothing failed).");
    console.log("The same suite runs on dynalite in `npm test`.");
    return 0;
  }
  await ensureEmulator();
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const java = spawn("java", [`-Djava.library.path=${libDir}`, "-jar", jar, "-inMemory", "-port", String(port)], {
    cwd: emulatorDir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stopJava = () => {
    if (java.exitCode === null) java.kill("SIGTERM");
  };
  process.once("SIGINT", stopJava);
  try {
    await waitUntilAnswering(endpoint, java);
    console.log(`DynamoDB Local is answering at ${endpoint}`);
    const started = Date.now();
    const vitest = spawnSync("npx", ["vitest", "run", "tests/integration/repositories.test.ts"], {
      stdio: "inherit",
      env: { ...process.env, DYNAMODB_TEST_ENDPOINT: endpoint },
    });
    console.log(`Repository suite on DynamoDB Local: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return vitest.status ?? 1;
  } finally {
    stopJava();
  }
}

process.exitCode = await main();
