import { type AnalyticsDto, type AnalyticsEventRow, type AnalyticsRange, messages } from "@dorsal/shared";
import { processedMinutesBetween, unbibbedCount } from "../data/dashboard";
import type { EventCounts, EventRecord, EventStats } from "../data/events";
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
  participants: Map<string, number>;
  processed: { processed: number; busyMinutes: number };
  unbibbed: number;
}

/**
 * 'Estadísticas y Análisis' (spec §2.1, §3 Analytics) for one event or all of them, read from what
 * the pipeline and the payments already keep: each event's counters, its participants with their
 * photo counts, its per-minute processed counters and the paid-sales index. Nothing new to
 * maintain, so nothing to drift.
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
        const [participants, processed, unbibbed] = await Promise.all([
          hasProcessed ? deps.participants.participantCounts(event.id) : new Map<string, number>(),
          processedMinutesBetween(deps.table, event.id, from, now),
          hasProcessed ? unbibbedCount(deps.table, event.id) : 0,
        ]);
        return { event, stats: eventStats, participants, processed, unbibbed };
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
    uniqueDorsals: sum((f) => countWithPhotos(f.participants)),
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
      photosWithBibPercent: percentWithBib(
        successful,
        sum((f) => f.unbibbed),
      ),
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

const countWithPhotos = (participants: Map<string, number>) =>
  [...participants.values()].filter((count) => count > 0).length;

/** Across events a bib is one runner per event, so the same number in two events is counted apart. */
function topDorsals(figures: EventFigures[]): AnalyticsDto["topDorsals"] {
  const all = figures.flatMap((f) =>
    [...f.participants]
      .filter(([, count]) => count > 0)
      .map(([dorsal, count]) => ({ dorsal, count, eventId: f.event.id })),
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
    uniqueDorsals: countWithPhotos(f.participants),
    salesInRange: sales.length,
    revenueInRange: sales.reduce((total, sale) => total + sale.amount, 0),
  };
}
