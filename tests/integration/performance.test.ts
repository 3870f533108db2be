import type {
  EventDto,
  PerformanceStatsDto,
  PublicUser,
  QueueStatsDto,
  UploadMetricsDto,
  UploadSummaryDto,
} from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, sendUploadFile, waitFor } from "../support/api";
import { sharedDorsal } from "../support/server";

describe("performance dashboard (issue 21 item 2), read back through the runtime", () => {
  it("shows what the pipeline measured, the queue and the asking admin's own latest upload", async () => {
    const dorsal = sharedDorsal();
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const event = (await admin.post<EventDto>("/api/events", { name: "Rendimiento 5K", date: "2026-11-29" })).body;
    // An admin of its own: the upload figures are the asker's latest upload, and other suites upload as the first admin.
    const email = `rendimiento-${Date.now()}@dorsal.example`;
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Ops",
      email,
      password: "clave-segura-1",
      assignedEventId: event.id,
    });
    await admin.put(`/api/users/${created.body.user.id}`, { name: "Ops", email, role: "admin" });
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", {
      email,
      password: "clave-segura-1",
    });
    const ops = apiClient(dorsal.url, login.body.token);

    const upload = (await ops.post<UploadSummaryDto>("/api/photos/my-uploads", { eventId: event.id, fileCount: 2 }))
      .body;
    for (const bib of ["4101", "4102"]) {
      const file = { filename: `meta-${bib}.jpg`, fileKey: `clave-${bib}`, bytes: await makeBibPhoto(bib) };
      expect(await sendUploadFile(ops, { eventId: event.id, uploadId: upload.uploadId, ...file })).toBe(200);
    }
    const settled = await waitFor(
      async () => {
        const metrics = (await ops.get<UploadMetricsDto>("/api/admin/upload-metrics")).body;
        return metrics.isActive ? undefined : metrics;
      },
      60_000,
      "the upload to settle",
    );
    const performance = await ops.get<PerformanceStatsDto>("/api/admin/performance-stats");
    const queue = await ops.get<QueueStatsDto>("/api/admin/async-processing-stats");

    expect(settled).toMatchObject({
      uploadId: upload.uploadId,
      eventId: event.id,
      totalPhotos: 2,
      processedPhotos: 2,
      successfulPhotos: 2,
      failedPhotos: 0,
    });
    expect(["meta-4101.jpg", "meta-4102.jpg"]).toContain(settled.lastProcessedPhoto);
    expect(settled.totalUploadTime).toBeGreaterThan(0);
    expect(settled.averageOcrTime).toBeGreaterThan(0);
    const searchable = performance.body.stages.find((stage) => stage.stage === "searchable");
    expect(searchable?.count).toBeGreaterThanOrEqual(2);
    expect(searchable?.p95Ms).toBeGreaterThanOrEqual(searchable?.p50Ms ?? Number.POSITIVE_INFINITY);
    expect(performance.body.photosPerMinute.last5Minutes).toBeGreaterThan(0);
    // Reading is part of each photo's way to searchable, so none of its percentiles can be longer.
    const detect = performance.body.stages.find((stage) => stage.stage === "detect");
    expect(detect?.count).toBe(searchable?.count);
    expect(detect?.p50Ms).toBeLessThanOrEqual(searchable?.p50Ms ?? 0);
    expect(detect?.p95Ms).toBeLessThanOrEqual(searchable?.p95Ms ?? 0);
    expect(performance.body.memoryTrend.length).toBeGreaterThan(0);
    expect(performance.body.memoryTrend.every((reading) => reading.rss > 0)).toBe(true);
    // The local queue says what waits and what runs; AWS's cannot say what runs, and says null.
    expect(queue.body.waiting).toEqual(expect.any(Number));
    expect(queue.body.processing).toEqual(expect.any(Number));
    expect(queue.body.completed).toBeGreaterThanOrEqual(2);
  });

  it("answers the cleanup with what it removed", async () => {
    const dorsal = sharedDorsal();
    const admin = apiClient(dorsal.url, await adminToken(dorsal));

    const cleaned = await admin.post<{ cleanedFiles: number; cleanedBytes: number }>("/api/admin/cleanup-temp");

    expect(cleaned.status).toBe(200);
    expect(cleaned.body).toEqual({ cleanedFiles: expect.any(Number), cleanedBytes: expect.any(Number) });
  });
});
