import {
  type AnalyticsDto,
  type CreateSaleResponse,
  type EventDto,
  formatPrice,
  type PublicUser,
} from "@dorsal/shared";
import { analyticsKpis } from "@dorsal/shared/analytics-words";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { chooseOnSandbox } from "../support/payment-sandbox";
import { pdfLines } from "../support/pdf";
import { seedEventWithBibPhotos } from "../support/seed";
import { sharedDorsal } from "../support/server";

/** The calendar day in Colombia, as the report's file name writes it. */
const bogotaDay = (at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Bogota" }).format(at);

/**
 * The analytics PDF (issue 22) through the runtime, read back with a PDF parser: the same figures
 * `/api/analytics` gives the screen for the same query, in Spanish, the revenue in pesos as the
 * app writes it, for the admin only. Its own events on the shared runtime, so it reads one event at
 * a time (the all-events report only for what is its own).
 */
describe("analytics PDF report", () => {
  const dorsal = sharedDorsal();
  let token: string;
  let event: EventDto;

  const report = (query: string, bearer: string | undefined = token) =>
    fetch(new URL(`/api/analytics/report${query}`, dorsal.url), {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });

  beforeAll(async () => {
    token = await adminToken(dorsal);
    const seeded = await seedEventWithBibPhotos(dorsal, token, {
      name: "Media Maratón de Señoritas",
      bibs: ["5173", "42"],
    });
    event = seeded.event;
    // Both photos in one sale, paid through the sandbox's 'Aprobar': the event's price per photo, 2 × 15.000.
    const created = await apiClient(dorsal.url).post<CreateSaleResponse>("/api/sales/create", {
      eventId: event.id,
      photoIds: [...seeded.photoIdsByBib.values()].flat(),
      customerName: "Ana Gómez",
      customerEmail: "ana.informe@example.co",
    });
    expect(created.status).toBe(201);
    expect((await chooseOnSandbox(dorsal.url, new URL(created.body.paymentUrl), "APPROVED")).status).toBe(302);
  });

  it("gives the admin the screen's figures for the same query, as a PDF to download", async () => {
    const query = `?range=7d&eventId=${event.id}`;
    const before = Date.now();
    const screen = await apiClient(dorsal.url, token).get<AnalyticsDto>(`/api/analytics${query}`);
    const response = await report(query);
    const after = Date.now();
    expect(screen.status).toBe(200);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const disposition = response.headers.get("content-disposition");
    expect(
      [bogotaDay(before), bogotaDay(after)].map(
        (day) => `attachment; filename="estadisticas-media-maraton-de-senoritas-${day}.pdf"`,
      ),
    ).toContain(disposition);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");

    const lines = await pdfLines(bytes);
    expect(lines).toContain("Estadísticas y Análisis");
    expect(lines).toContain("Evento: Media Maratón de Señoritas");
    expect(lines.some((line) => /^Periodo: Últimos 7 días, del \d+ de \p{L}+ de \d{4} a las \d/u.test(line))).toBe(
      true,
    );
    expect(lines.some((line) => line.startsWith("Generado el ") && line.endsWith("Horas de Colombia."))).toBe(true);

    // The figures are the screen's: two photos, two bibs, one paid sale of both photos.
    const figures = screen.body;
    expect(figures).toMatchObject({
      totalPhotos: 2,
      totalDorsals: 2,
      uniqueDorsals: 2,
      processingStats: { successful: 2, failed: 0, pending: 0, duplicates: 0 },
      salesStats: { totalSales: 1, totalRevenue: 30_000 },
    });
    expect(formatPrice(figures.salesStats.totalRevenue)).toBe("$ 30.000 COP");
    const kpis = analyticsKpis(figures, "7d");
    expect(kpis.map((kpi) => kpi.caption)).toContain("1 venta en los últimos 7 días");
    for (const kpi of kpis) {
      expect(lines).toContain(kpi.label);
      expect(lines).toContain(kpi.value);
      expect(lines).toContain(kpi.caption);
    }
    expect(lines).toContain("$ 30.000 COP");
    expect(lines).toContain("Exitosas 2 · 100%");
    expect(lines).toContain("Fallidas 0 · 0%");
    expect(lines).toContain("Fotos con dorsal 100%");
    expect(lines).toContain("1. #42 1 foto");
    expect(lines).toContain("2. #5173 1 foto");
    // One event: no comparison between events.
    expect(lines).not.toContain("Comparación por evento");
  });

  it("reports all events under 'todos', comparing each, this one with its revenue", async () => {
    const response = await report("?range=30d");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="estadisticas-todos-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const lines = await pdfLines(new Uint8Array(await response.arrayBuffer()));
    expect(lines).toContain("Evento: Todos los eventos");
    expect(lines).toContain("Comparación por evento");
    expect(lines).toContain("Media Maratón de Señoritas 2 2 2 1 $ 30.000 COP");
    expect(lines).toContain("Ingresos por evento");
  });

  it("says there is no data for an event with nothing yet, in a PDF all the same", async () => {
    const admin = apiClient(dorsal.url, token);
    const empty = await admin.post<EventDto>("/api/events", { name: "Trail del Páramo", date: "2026-12-13" });
    expect(empty.status).toBe(201);
    const response = await report(`?range=24h&eventId=${empty.body.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const lines = await pdfLines(new Uint8Array(await response.arrayBuffer()));
    expect(lines).toContain("Evento: Trail del Páramo");
    expect(lines.some((line) => line.startsWith("Periodo: Últimas 24 horas"))).toBe(true);
    expect(lines).toContain("No hay datos para este periodo: aún no hay fotos ni ventas.");
    expect(lines).not.toContain("Estado del procesamiento");
  });

  it("refuses without a session (401), a photographer (403), a range it does not know and an unknown event", async () => {
    const anonymous = await report(`?eventId=${event.id}`, "");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toContain("application/json");

    const admin = apiClient(dorsal.url, token);
    const credentials = { email: "informe.foto@dorsal.test", password: "secreto1" };
    const created = await admin.post<{ user: PublicUser }>("/api/users", {
      name: "Fotógrafa del informe",
      ...credentials,
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const login = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/login", credentials);
    const refused = await report(`?eventId=${event.id}`, login.body.token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ success: false, error: "No tienes permiso para realizar esta acción" });

    const badRange = await report("?range=1y");
    expect(badRange.status).toBe(400);
    expect(await badRange.json()).toMatchObject({ error: "Periodo no válido: usa 24h, 7d o 30d" });
    expect((await report("?eventId=999999")).status).toBe(404);
  });
});
