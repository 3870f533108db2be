import { spawn } from "node:child_process";
import path from "node:path";
import type { PreflightRunDto } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreflightReport } from "../../functions/src/preflight/preflight";
import { adminToken, apiClient } from "../support/api";
import { runEnded, temporaryAdmins } from "../support/preflight-runs";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The preflight (issue 21) against a runtime of its own whose recognition stage is broken: the
 * pipeline's retries make each run wait ~15 s, so these tests stand in a file of the isolated
 * project, run beside the others, rather than at the end of the shared runtime's suites
 * (preflight.test.ts), where they were the last 35 s of `npm test`.
 */

const root = path.resolve(import.meta.dirname, "../..");

/** `npm run preflight` as ops run it: its exit code, and its last line parsed as the report. */
function preflightCli(url: string, credentials: { email: string; password: string }) {
  return new Promise<{ code: number | null; lines: string[]; report: PreflightReport }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "functions/src/preflight/cli.ts", "--url", url, "--timeout", "60"],
      {
        cwd: root,
        env: { ...process.env, ADMIN_EMAIL: credentials.email, ADMIN_PASSWORD: credentials.password },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = output.trim().split("\n");
      resolve({ code, lines, report: JSON.parse(lines.at(-1) ?? "{}") as PreflightReport });
    });
  });
}

describe("preflight against a runtime whose recognition stage is broken", () => {
  /** The probe stops at the pipeline, and still removes what it made. */
  const redAtPipeline = [
    "api GREEN",
    "signIn GREEN",
    "probeEvent GREEN",
    "upload GREEN",
    "pipeline RED",
    "cleanup GREEN",
  ];
  let broken: RunningDorsal;
  beforeAll(async () => {
    // Rekognition behind an address nothing answers: detect fails, the pipeline fails the photo.
    broken = await startDorsal({
      env: {
        VISION_ENGINE: "rekognition",
        AWS_REGION: "us-east-1",
        AWS_ACCESS_KEY_ID: "preflight-test",
        AWS_SECRET_ACCESS_KEY: "preflight-test",
        AWS_ENDPOINT_URL_REKOGNITION: "http://127.0.0.1:9",
      },
    });
  });
  afterAll(() => broken.stop());

  it("is RED at the pipeline with the photo's reason, exits 1, and still removes the probe", async () => {
    const { code, lines, report } = await preflightCli(broken.url, {
      email: broken.adminEmail,
      password: broken.adminPassword,
    });
    expect(code).toBe(1);
    expect(report.status).toBe("RED");
    expect(report.checks.map(({ name, status }) => `${name} ${status}`)).toEqual(redAtPipeline);
    expect(report.checks[4]?.detail).toMatch(/^la foto falló: .+/);
    // One line a check, as ops read it, before the JSON.
    expect(lines.slice(0, -1)).toHaveLength(6);
    expect(lines[4]).toMatch(/^RED +pipeline +\d+ ms {2}la foto falló/);
  });

  it("is RED from /preflight too, at the pipeline, and the checks after the probe still run", async () => {
    const admin = apiClient(broken.url, await adminToken(broken));

    const started = await admin.post<PreflightRunDto>("/api/admin/preflight", {});
    const ended = await runEnded(admin, started.body.id);

    expect(ended.status).toBe("RED");
    expect(ended.checks.map(({ name, status }) => `${name} ${status}`)).toEqual([
      ...redAtPipeline,
      "payments GREEN",
      "quotas GREEN",
      "system GREEN",
    ]);
    expect(await temporaryAdmins(admin)).toEqual([]);
  });

  it("is RED at sign-in with the server's own reason when the credentials are wrong", async () => {
    const { code, report } = await preflightCli(broken.url, { email: broken.adminEmail, password: "no-es-la-clave" });
    expect(code).toBe(1);
    expect(report.checks.map(({ name, status }) => `${name} ${status}`)).toEqual(["api GREEN", "signIn RED"]);
    expect(report.checks[1]?.detail).toMatch(/^POST \/api\/auth\/login: 401 /);
  });
});
