import { defineConfig } from "vitest/config";

/**
 * One `npm test` runs every layer. Integration and browser tests start the embedded runtime as a
 * child process, exactly as `npm start` does, and talk to it over HTTP.
 */
export default defineConfig({
  test: {
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
        },
      },
      {
        test: {
          name: "infra",
          include: ["infra/test/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
