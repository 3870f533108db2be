import type { AnalyticsDto, CreateSaleResponse, EventDto, PresignResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient, waitFor } from "../support/api";
import { chooseOnSandbox } from "../support/payment-sandbox";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * 'Estadísticas y Análisis' from real data: photos through the pipeline, a failed upload and a sale
 * paid through the payment sandbox, read for all events and for one.
 */
describe("analytics", () => {
  let dorsal: RunningDorsal;
  let admin: ReturnType<typeof apiClient>;
  let rosas: EventDto;
  let montana: EventDto;
  let saleAmount: number;

  const read = async (query: string) => {
    const response = await admin.get<AnalyticsDto>(`/api/analytics${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    dorsal = await startDorsal();
    const token = await adminToken(dorsal);
    admin = apiClient(dorsal.url, token);
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  it("starts from nothing, with no rate or average pretending to know more than the data", async () => {
    const empty = await read("");
    expect(empty).toMatchObject({
      range: "24h",
      eventId: null,
      totalPhotos: 0,
      totalDorsals: 0,
      uniqueDorsals: 0,
      averageDorsalsPerPhoto: null,
      processedInRange: 0,
      processingRate: null,
      processingStats: { successful: 0, failed: 0, pending: 0, duplicates: 0 },
      recognition: { photosWithBibPercent: null, averageProcessingMs: null, facesDetected: 0 },
      topDorsals: [],
      salesStats: { totalSales: 0, totalRevenue: 0, averageSaleAmount: null },
      events: [],
      system: { runtime: "local", recognitionEngine: "local", lastProcessedAt: null },
    });
    expect(Date.parse(empty.generatedAt) - Date.parse(empty.from)).toBe(24 * 3600_000);
  });

  it("refuses a range it does not know, and an unknown event", async () => {
    const badRange = await admin.get<{ error: string }>("/api/analytics?range=1y");
    expect(badRange.status).toBe(400);
    expect(badRange.body.error).toBe("Periodo no válido: usa 24h, 7d o 30d");
    const unknown = await admin.get<{ error: string }>("/api/analytics?eventId=999");
    expect(unknown).toMatchObject({ status: 404, body: { error: "Evento no encontrado" } });
  });

  it("sums every event: photos, bibs, processing states, the top bibs and the range's sales", async () => {
    const token = await adminToken(dorsal);
    const seededRosas = await seedEventWithBibPhotos(dorsal, token, {
      name: "Carrera de las Rosas",
      bibs: ["5173", "5173", "42"],
    });
    rosas = seededRosas.event;
    montana = (await seedEventWithBibPhotos(dorsal, token, { name: "Trail de Montaña", bibs: ["5173"] })).event;

    // Bytes that are no image, under a photo's name: the pipeline refuses it and counts a failure.
    const broken = Buffer.from("esto no es una foto");
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: montana.id,
      files: [{ filename: "rota.jpg", contentType: "image/jpeg", size: broken.length }],
    });
    const [upload] = presigned.body.uploads;
    expect((await fetch(upload?.url ?? "", { method: "PUT", headers: upload?.headers, body: broken })).status).toBe(
      200,
    );
    await waitFor(
      async () => ((await admin.get<EventDto>(`/api/events/${montana.id}`)).body.failedPhotos === 1 ? true : undefined),
      60_000,
      "the broken upload to fail",
    );

    // One photo of bib 42 bought and paid through the sandbox's 'Aprobar'.
    const [photoOf42] = seededRosas.photoIdsByBib.get("42") ?? [];
    const created = await apiClient(dorsal.url).post<CreateSaleResponse>("/api/sales/create", {
      eventId: rosas.id,
      photoIds: [photoOf42],
      customerName: "Ana Gómez",
      customerEmail: "ana@example.co",
    });
    expect(created.status).toBe(201);
    saleAmount = created.body.amount;
    const paid = await chooseOnSandbox(dorsal.url, new URL(created.body.paymentUrl), "APPROVED");
    expect(paid.status).toBe(302);

    const all = await read("?range=7d");
    expect(all).toMatchObject({
      range: "7d",
      eventId: null,
      totalPhotos: 5,
      totalDorsals: 4,
      // 5173 of each event is a different runner.
      uniqueDorsals: 3,
      averageDorsalsPerPhoto: 1,
      processedInRange: 4,
      processingStats: { successful: 4, failed: 1, pending: 0, duplicates: 0 },
      recognition: { photosWithBibPercent: 100 },
      topDorsals: [
        { dorsal: "5173", count: 2, eventId: rosas.id },
        { dorsal: "42", count: 1, eventId: rosas.id },
        { dorsal: "5173", count: 1, eventId: montana.id },
      ],
      salesStats: { totalSales: 1, totalRevenue: saleAmount, averageSaleAmount: saleAmount },
      // Newest first, as the events list.
      events: [
        {
          eventId: montana.id,
          name: "Trail de Montaña",
          totalPhotos: 2,
          processedPhotos: 1,
          uniqueDorsals: 1,
          salesInRange: 0,
          revenueInRange: 0,
        },
        {
          eventId: rosas.id,
          name: "Carrera de las Rosas",
          totalPhotos: 3,
          processedPhotos: 3,
          uniqueDorsals: 2,
          salesInRange: 1,
          revenueInRange: saleAmount,
        },
      ],
    });
    expect(saleAmount).toBeGreaterThan(0);
    // Four photos over the minutes that processed any: at most four per minute, at least one.
    expect(all.processingRate).toBeGreaterThanOrEqual(1);
    expect(all.processingRate).toBeLessThanOrEqual(4);
    expect(all.recognition.averageProcessingMs).toBeGreaterThan(0);
    expect(Date.parse(all.system.lastProcessedAt ?? "")).toBeLessThanOrEqual(Date.parse(all.generatedAt));
  });

  it("narrows everything to one event, without the comparison", async () => {
    const one = await read(`?range=30d&eventId=${montana.id}`);
    expect(one).toMatchObject({
      range: "30d",
      eventId: montana.id,
      totalPhotos: 2,
      totalDorsals: 1,
      uniqueDorsals: 1,
      processingStats: { successful: 1, failed: 1, pending: 0, duplicates: 0 },
      topDorsals: [{ dorsal: "5173", count: 1, eventId: montana.id }],
      salesStats: { totalSales: 0, totalRevenue: 0, averageSaleAmount: null },
      events: [],
    });
    const sold = await read(`?eventId=${rosas.id}`);
    expect(sold.salesStats).toEqual({ totalSales: 1, totalRevenue: saleAmount, averageSaleAmount: saleAmount });
  });
});
