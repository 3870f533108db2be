import { spawn } from "node:child_process";
import path from "node:path";
import {
  type EventDto,
  messages,
  type PreflightRunDto,
  type PreflightRunList,
  preflightCheckNames,
} from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PreflightReport, runPreflight } from "../../functions/src/preflight/preflight";
import { makeBibPhoto, zipOf } from "../../functions/src/preflight/probe-photo";
import { probePortraitJpeg } from "../../functions/src/preflight/probe-portrait";
import { adminToken, allUsers, apiClient, waitFor } from "../support/api";
import { type RunningDorsal, sharedDorsal, startDorsal } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");

type Client = ReturnType<typeof apiClient>;

/** What the probe itself checks over HTTP (`npm run preflight`): every check up to its cleanup. */
const probeChecks = preflightCheckNames.slice(0, preflightCheckNames.indexOf("cleanup") + 1);

/** Waits for a run the server started to end, as /preflight polls it. */
const runEnded = (admin: Client, runId: string, timeoutMs = 120_000) =>
  waitFor(
    async () => {
      const { body } = await admin.get<PreflightRunDto>(`/api/admin/preflight/${runId}`);
      return body.state === "running" ? undefined : body;
    },
    timeoutMs,
    `preflight run ${runId} to end`,
  );

const temporaryAdmins = async (admin: Client) =>
  (await allUsers(admin)).filter((user) => user.email.startsWith("preflight-"));

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

/** The preflight's probe against a runtime: a bib photo (with or without a face) and the next bib in a ZIP. */
async function probeThrough(
  dorsal: Pick<RunningDorsal, "url" | "adminEmail" | "adminPassword">,
  bib: string,
  { face }: { face: boolean },
) {
  return runPreflight({
    url: dorsal.url,
    email: dorsal.adminEmail,
    password: dorsal.adminPassword,
    probeBib: bib,
    probeImage: await makeBibPhoto(bib, face ? { portrait: probePortraitJpeg() } : {}),
    probeZip: await zipOf("sonda.jpg", await makeBibPhoto(String(Number(bib) + 2))),
    pipelineTimeoutMs: 60_000,
  });
}

describe("preflight (issue 21): a probe through every stage", () => {
  it("is GREEN against a working runtime, check by check, and leaves nothing behind", async () => {
    const dorsal = sharedDorsal();
    const report = await probeThrough(dorsal, "96231", { face: true });
    expect(report.checks.map(({ name, status }) => `${name} ${status}`)).toEqual(
      probeChecks.map((name) => `${name} GREEN`),
    );
    expect(report.status).toBe("GREEN");
    const probeEvent = Number(/evento (\d+)/.exec(report.checks[2]?.detail ?? "")?.[1]);
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    expect((await admin.get(`/api/events/${probeEvent}`)).status).toBe(404);
  });

  it("is RED at the face stage when the probe photo's face is not found, and still removes the probe", async () => {
    const dorsal = sharedDorsal();
    // The bib alone: what the face stage returns when it finds no face.
    const report = await probeThrough(dorsal, "96234", { face: false });
    const upToFaces = probeChecks.slice(0, probeChecks.indexOf("faces") + 1);
    expect(report.checks.map(({ name, status }) => `${name} ${status}`)).toEqual([
      ...upToFaces.map((name) => `${name} ${name === "faces" ? "RED" : "GREEN"}`),
      "cleanup GREEN",
    ]);
    expect(report.checks.find((check) => check.name === "faces")?.detail).toBe(
      "no se encontró la cara de la foto de prueba",
    );
  });

  it("keeps its probe event out of the public lists, photos and all, while an admin still sees it", async () => {
    const dorsal = sharedDorsal();
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const visitor = apiClient(dorsal.url);
    const created = await admin.post<EventDto>("/api/events", {
      name: "Sonda oculta",
      date: "2026-11-27",
      unlisted: true,
    });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.set("eventId", String(created.body.id));
    form.append("photos", new Blob([new Uint8Array(await makeBibPhoto("96232"))], { type: "image/jpeg" }), "sonda.jpg");
    expect((await admin.post("/api/photos/upload", form)).status).toBe(200);
    await waitFor(
      async () =>
        (await admin.get<EventDto>(`/api/events/${created.body.id}`)).body.photoCount === 1 ? true : undefined,
      30_000,
      "the probe photo to be processed",
    );
    const ids = (events: { id: number }[]) => events.map((event) => event.id);
    expect(ids((await visitor.get<EventDto[]>("/api/events")).body)).not.toContain(created.body.id);
    expect(ids((await visitor.get<EventDto[]>("/api/events/all-with-photos")).body)).not.toContain(created.body.id);
    expect(ids((await admin.get<EventDto[]>("/api/events")).body)).toContain(created.body.id);
  });

  it("runs from /preflight in the background, one at a time, check by check, and keeps the history", async () => {
    const dorsal = sharedDorsal();
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const event = await admin.post<EventDto>("/api/events", { name: "Carrera lista", date: "2026-11-29" });

    const started = await admin.post<PreflightRunDto>("/api/admin/preflight", { eventId: event.body.id });
    const again = await admin.post<{ error: string }>("/api/admin/preflight", {});

    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: "running",
      trigger: "manual",
      eventId: event.body.id,
      requestedBy: dorsal.adminEmail,
      expectedChecks: 16,
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(messages.preflightRunning);
    const ended = await runEnded(admin, started.body.id);
    expect(ended.checks.map(({ name, status }) => `${name} ${status}`)).toEqual(
      preflightCheckNames.map((name) => `${name} GREEN`),
    );
    expect(ended).toMatchObject({ state: "done", status: "GREEN", systemInfo: { environment: "local" } });
    expect(ended.checks.find((check) => check.name === "event")?.detail).toMatch(/^«Carrera lista»: 0 fotos/);
    expect(ended.totalMs).toBeGreaterThan(0);
    const history = await admin.get<PreflightRunList>("/api/admin/preflight");
    expect(history.body.runs[0]?.id).toBe(started.body.id);
    // The temporary admin it signed in as is gone, and a new run may start.
    expect(await temporaryAdmins(admin)).toEqual([]);
    const next = await admin.post<PreflightRunDto>("/api/admin/preflight", {});
    expect(next.status).toBe(200);
    expect((await runEnded(admin, next.body.id)).expectedChecks).toBe(15);
  });

  it("refuses unknown events and runs (who may call it: the access matrix)", async () => {
    const dorsal = sharedDorsal();
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const runId = "0000000000aaaaaaaaaa";
    const unknownEvent = await admin.post<{ error: string }>("/api/admin/preflight", { eventId: 987654 });
    expect(unknownEvent.status).toBe(404);
    expect(unknownEvent.body.error).toBe(messages.eventNotFound);
    expect((await admin.get(`/api/admin/preflight/${runId}`)).status).toBe(404);
    expect((await admin.get("/api/admin/preflight/..%2Fusers")).status).toBe(400);
  });

  describe("against a runtime whose recognition stage is broken", () => {
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
});
