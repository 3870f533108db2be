import {
  type EventDto,
  messages,
  type PreflightRunDto,
  type PreflightRunList,
  preflightCheckNames,
} from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { runPreflight } from "../../functions/src/preflight/preflight";
import { makeBibPhoto, zipOf } from "../../functions/src/preflight/probe-photo";
import { probePortraitJpeg } from "../../functions/src/preflight/probe-portrait";
import { adminToken, apiClient, waitFor } from "../support/api";
import { runEnded, temporaryAdmins } from "../support/preflight-runs";
import { type RunningDorsal, sharedDorsal } from "../support/server";

/** What the probe itself checks over HTTP (`npm run preflight`): every check up to its cleanup. */
const probeChecks = preflightCheckNames.slice(0, preflightCheckNames.indexOf("cleanup") + 1);

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
});
