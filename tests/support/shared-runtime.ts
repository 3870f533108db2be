import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startRuntime } from "../../functions/local/runtime";
import { testAdmin } from "./test-admin";

/** What a suite needs to reach the runtime its project shares. */
export interface SharedDorsal {
  url: string;
  adminEmail: string;
  adminPassword: string;
  /** For suites that look at what the runtime stored (their own events' items and objects only). */
  dataDir: string;
  tableEndpoint: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    sharedDorsal: SharedDorsal;
  }
}

/**
 * Global setup of the `integration-shared` project: one embedded runtime, started in vitest's own process
 * through `startRuntime` (functions/local/runtime.ts), for the suites whose data is their own (their
 * events, users and photos) and whose assertions look at nothing else. A suite that restarts,
 * kills or reconfigures the runtime, reads its output or counts across events starts its own
 * (tests/support/server.ts).
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-shared-"));
  const runtime = await startRuntime({
    ...process.env,
    PORT: "0",
    DATA_DIR: dataDir,
    ADMIN_EMAIL: testAdmin.email,
    ADMIN_PASSWORD: testAdmin.password,
    LOG_LEVEL: "warn",
    // Every suite sharing it calls from one address, far faster than a person: the limits have their own test.
    RATE_LIMITS: "off",
  });
  project.provide("sharedDorsal", {
    url: runtime.url,
    adminEmail: testAdmin.email,
    adminPassword: testAdmin.password,
    dataDir,
    tableEndpoint: runtime.tableEndpoint,
  });
  return async () => {
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
