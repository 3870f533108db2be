import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto, SearchResponse, UploadResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * Nothing accepted is lost when the process dies: the local pipeline's queue lives under the data
 * dir, so photos still queued (or half-processed) when Dorsal is SIGKILLed run after the restart.
 */
describe("crash recovery of the local pipeline", () => {
  const bibs = ["1101", "2202", "3303", "4404", "5505"];
  const env = { PIPELINE_CONCURRENCY: "1" };
  let dataDir: string;
  let dorsal: RunningDorsal | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-crash-"));
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const queued = async () =>
    (await readdir(path.join(dataDir, "pipeline-queue")).catch(() => [] as string[])).filter((f) =>
      f.endsWith(".json"),
    );

  it("finishes every accepted photo after a SIGKILL mid-batch and a restart", async () => {
    dorsal = await startDorsal({ dataDir, env });
    const token = await adminToken(dorsal);
    const event = (
      await apiClient(dorsal.url, token).post<EventDto>("/api/events", {
        name: "Carrera sin pérdidas",
        date: "2026-09-20",
      })
    ).body;

    const form = new FormData();
    form.append("eventId", String(event.id));
    for (const bib of bibs) {
      form.append("photos", new Blob([await makeBibPhoto(bib)], { type: "image/jpeg" }), `meta-${bib}.jpg`);
    }
    const uploaded = await apiClient(dorsal.url, token).post<UploadResponse>("/api/photos/upload", form);
    expect(uploaded.body.uploaded).toBe(bibs.length);

    // One photo at a time, and the first waits for the OCR engine to load: the rest are still queued.
    await waitFor(
      async () => ((await queued()).length === bibs.length ? true : undefined),
      10_000,
      "all executions queued",
    );
    await dorsal.kill();
    const left = await queued();
    expect(left.length).toBeGreaterThan(0);

    dorsal = await startDorsal({ dataDir, env });
    const done = await waitFor(
      async () => {
        const current = (await apiClient(dorsal?.url ?? "").get<EventDto>(`/api/events/${event.id}`)).body;
        return current.photoCount + current.failedPhotos >= bibs.length ? current : undefined;
      },
      90_000,
      "every photo processed after the restart",
    );
    expect(done).toMatchObject({ photoCount: bibs.length, totalPhotos: bibs.length, failedPhotos: 0 });
    for (const bib of bibs) {
      const found = await apiClient(dorsal.url).get<SearchResponse>(
        `/api/photos/search?eventId=${event.id}&dorsalNumber=${bib}`,
      );
      expect(found.body.photos.map((p) => p.originalFilename)).toEqual([`meta-${bib}.jpg`]);
    }
    await waitFor(async () => ((await queued()).length === 0 ? true : undefined), 10_000, "the queue to empty");
  });
});
