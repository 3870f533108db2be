import { type AnalyticsDto, type AnalyticsEventRow, type AnalyticsRange, messages } from "@dorsal/shared";
import { processedMinutesBetween } from "../data/dashboard";
import type { EventCounts, EventRecord, EventStats } from "../data/events";
import type { BibWithPhotos } from "../data/participants";
import type { Deps } from "./deps";
import { notFound } from "./errors";
import { percentWithBib } from "./events";

const rangeMs: Record<AnalyticsRange, number> = {
  "24h": 24 * 3600_000,
  "7d": 7 * 24 * 3600_000,
  "30d": 30 * 24 * 3600_000,
};
const topDorsalCount = 6;

interface EventFigures {
  event: EventRecord;
  stats: EventStats | undefined;
  /** The event's bibs with the most photos (at most `topDorsalCount`). */
  top: BibWithPhotos[];
  processed: { processed: number; busyMinutes: number };
}

/**
 * 'Estadísticas y Análisis' (spec §2.1, §3 Analytics) for one event or all of them, read from what
 * the pipeline and the payments keep: each event's counters (bibs with photos and photos without a
 * bib among them, kept with the writes and recounted), its participants' ranking by photos, its
 * per-minute processed counters and the paid-sales index. No read grows with the event's photos
 * or bibs, so a 100,000-photo event answers as fast as a small one (npm run bench:scale).
 */
export async function analytics(
  deps: Deps,
  query: { range: AnalyticsRange; eventId?: number | undefined },
): Promise<AnalyticsDto> {
  const now = deps.clock.now();
  const from = new Date(now.getTime() - rangeMs[query.range]);
  const events = await selectedEvents(deps, query.eventId);
  const stats = await deps.events.stats(events.map((event) => event.id));
  const [figures, paid] = await Promise.all([
    Promise.all(
      events.map(async (event): Promise<EventFigures> => {
        const eventStats = stats.get(event.id);
        const hasProcessed = (eventStats?.processedPhotos ?? 0) > 0;
        const [top, processed] = await Promise.all([
          hasProcessed ? deps.participants.topByPhotos(event.id, topDorsalCount) : [],
          processedMinutesBetween(deps.table, event.id, from, now),
        ]);
        return { event, stats: eventStats, top, processed };
      }),
    ),
    deps.sales.paidBetween(from, now),
  ]);

  const sum = (pick: (figures: EventFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
  const counter = (name: keyof EventCounts) => sum((f) => f.stats?.[name] ?? 0);
  const totalPhotos = counter("totalPhotos");
  const successful = counter("processedPhotos");
  const failed = counter("failedPhotos");
  const duplicates = counter("duplicatePhotos");
  const totalDorsals = counter("dorsalsDetected");
  const processedInRange = sum((f) => f.processed.processed);
  const busyMinutes = sum((f) => f.processed.busyMinutes);

  const selected = new Set(events.map((event) => event.id));
  const salesOf = (eventId: number) => paid.filter((sale) => sale.eventId === eventId);
  const sales = paid.filter((sale) => selected.has(sale.eventId));
  const revenue = sales.reduce((total, sale) => total + sale.amount, 0);

  const lastProcessedAt = figures
    .map((f) => f.stats?.lastProcessedAt ?? null)
    .reduce<string | null>((latest, at) => (at !== null && (latest === null || at > latest) ? at : latest), null);

  return {
    range: query.range,
    eventId: query.eventId ?? null,
    from: from.toISOString(),
    generatedAt: now.toISOString(),
    totalPhotos,
    totalDorsals,
    uniqueDorsals: counter("bibsWithPhotos"),
    averageDorsalsPerPhoto: successful === 0 ? null : Math.round((totalDorsals / successful) * 100) / 100,
    processedInRange,
    processingRate: busyMinutes === 0 ? null : Math.round((processedInRange / busyMinutes) * 10) / 10,
    processingStats: {
      successful,
      failed,
      duplicates,
      // Counted before they are judged: whatever has not settled yet is still in the pipeline.
      pending: Math.max(0, totalPhotos - successful - failed - duplicates),
    },
    recognition: {
      photosWithBibPercent: percentWithBib(successful, counter("unbibbedPhotos")),
      averageProcessingMs: successful === 0 ? null : Math.round(counter("processingMsTotal") / successful),
      facesDetected: counter("facesDetected"),
    },
    topDorsals: topDorsals(figures),
    salesStats: {
      totalSales: sales.length,
      totalRevenue: revenue,
      averageSaleAmount: sales.length === 0 ? null : Math.round(revenue / sales.length),
    },
    events: query.eventId === undefined ? figures.map((f) => eventRow(f, salesOf(f.event.id))) : [],
    system: { runtime: deps.config.DORSAL_RUNTIME, recognitionEngine: deps.config.VISION_ENGINE, lastProcessedAt },
  };
}

async function selectedEvents(deps: Deps, eventId: number | undefined): Promise<EventRecord[]> {
  if (eventId === undefined) return deps.events.list();
  const event = await deps.events.get(eventId);
  if (!event) throw notFound(messages.eventNotFound);
  return [event];
}

/** Across events a bib is one runner per event, so the same number in two events is counted apart. */
function topDorsals(figures: EventFigures[]): AnalyticsDto["topDorsals"] {
  const all = figures.flatMap((f) =>
    f.top.map(({ dorsalNumber, photoCount }) => ({ dorsal: dorsalNumber, count: photoCount, eventId: f.event.id })),
  );
  return all
    .sort((a, b) => b.count - a.count || a.dorsal.localeCompare(b.dorsal, "es", { numeric: true }))
    .slice(0, topDorsalCount);
}

function eventRow(f: EventFigures, sales: { amount: number }[]): AnalyticsEventRow {
  return {
    eventId: f.event.id,
    name: f.event.name,
    totalPhotos: f.stats?.totalPhotos ?? 0,
    processedPhotos: f.stats?.processedPhotos ?? 0,
    uniqueDorsals: f.stats?.bibsWithPhotos ?? 0,
    salesInRange: sales.length,
    revenueInRange: sales.reduce((total, sale) => total + sale.amount, 0),
  };
}
