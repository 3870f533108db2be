import type { DashboardStats, EventDto, PresignResponse } from "@dorsal/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { type RunningDorsal, startDorsal } from "../support/server";

/** The dashboard's comparisons from real data: events this month, photos processed today, photos with a bib. */
describe("dashboard stats", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    dorsal = await startDorsal();
    admin = apiClient(dorsal.url, await adminToken(dorsal));
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("starts from nothing: no comparison pretends to know more than the data", async () => {
    const stats = await admin.get<DashboardStats>("/api/dashboard/stats");
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      activeEvents: 0,
      processedPhotos: 0,
      detectedDorsals: 0,
      monthlySales: 0,
      eventsCreatedThisMonth: 0,
      processedToday: 0,
      photosWithBibPercent: null,
      previousMonthSales: 0,
    });
  });

  it("counts this month's events, today's processed photos and the share of photos with a bib", async () => {
    await admin.post("/api/events", { name: "Carrera Terminada", date: "2026-03-01", status: "completed" });
    const event = (await admin.post<EventDto>("/api/events", { name: "Carrera del Día", date: "2026-11-23" })).body;
    const blank = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7d44" } })
      .jpeg()
      .toBuffer();
    const files: [string, Buffer][] = [
      ["corredor-5120.jpg", await makeBibPhoto("5120")],
      ["sin-dorsal.jpg", blank],
    ];
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: event.id,
      files: files.map(([filename, body]) => ({ filename, contentType: "image/jpeg", size: body.length })),
    });
    for (const [index, upload] of presigned.body.uploads.entries()) {
      const [, body] = files[index] as [string, Buffer];
      expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: new Uint8Array(body) })).ok).toBe(
        true,
      );
    }
    await waitFor(
      async () => ((await admin.get<EventDto>(`/api/events/${event.id}`)).body.photoCount === 2 ? true : undefined),
      90_000,
      "two processed photos",
    );

    const stats = await admin.get<DashboardStats>("/api/dashboard/stats");
    expect(stats.body).toEqual({
      activeEvents: 1,
      processedPhotos: 2,
      detectedDorsals: 1,
      monthlySales: 0,
      // Both were created now, whatever their status.
      eventsCreatedThisMonth: 2,
      processedToday: 2,
      photosWithBibPercent: 50,
      previousMonthSales: 0,
    });
  });
});
