import type { TestProject } from "vitest/node";
import { bundleRuntime } from "../../functions/local/bundle";

/**
 * Set by the global setup below to the bundle it has just made of this checkout; the test workers
 * and the benchmarks they spawn inherit it (tests/support/server.ts).
 */
export const freshBundleVariable = "DORSAL_TEST_RUNTIME_BUNDLE";

/**
 * Global setup of the whole run: the runtime is bundled once, before any worker starts, instead of
 * once in every test process that starts one (each isolated file is a process of its own; a bundle
 * with its prepared models is ~1 CPU-s). In watch mode a rerun bundles the edited sources again.
 */
export default async function setup(project: TestProject) {
  process.env[freshBundleVariable] = await bundleRuntime();
  project.onTestsRerun(async () => {
    await bundleRuntime();
  });
}
