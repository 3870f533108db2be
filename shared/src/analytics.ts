import { z } from "zod";
import { idParam } from "./api";

/** Spec §2.1 Analytics: the range buttons '24h', '7 días', '30 días'. */
export const analyticsRanges = ["24h", "7d", "30d"] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

export const analyticsQuery = z.object({
  range: z.enum(analyticsRanges, { error: "Periodo no válido: usa 24h, 7d o 30d" }).default("24h"),
  /** One event; all events without it. */
  eventId: idParam.optional(),
});
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

export interface AnalyticsEventRow {
  eventId: number;
  name: string;
  totalPhotos: number;
  processedPhotos: number;
  uniqueDorsals: number;
  salesInRange: number;
  revenueInRange: number;
}

/**
 * Spec §3 Analytics. Totals (photos, bibs, processing states, recognition) are the event's whole
 * history; the range narrows what happens over time: the processing rate and the sales.
 */
export interface AnalyticsDto {
  range: AnalyticsRange;
  eventId: number | null;
  /** Start of the range and the moment the figures were read (ISO). */
  from: string;
  generatedAt: string;
  totalPhotos: number;
  /** Bib links: a photo with two bibs counts twice. */
  totalDorsals: number;
  /** Bibs with at least one photo. */
  uniqueDorsals: number;
  /** Bib links per processed photo, two decimals; null while none is processed. */
  averageDorsalsPerPhoto: number | null;
  /** Photos that became searchable within the range. */
  processedInRange: number;
  /** Photos per minute over the minutes of the range in which photos were processed; null when none were. */
  processingRate: number | null;
  processingStats: { successful: number; failed: number; pending: number; duplicates: number };
  recognition: {
    /** Whole percent of processed photos with at least one bib; null while none is processed. */
    photosWithBibPercent: number | null;
    /** Mean processing time per photo (copies, text and faces), ms; null while none is processed. */
    averageProcessingMs: number | null;
    facesDetected: number;
  };
  /** The six bibs with most photos, most first; a bib is a runner of one event, so it names its event. */
  topDorsals: { dorsal: string; count: number; eventId: number }[];
  /** Paid sales within the range. */
  salesStats: { totalSales: number; totalRevenue: number; averageSaleAmount: number | null };
  /** Per-event comparison: every event when all are selected, empty for one event. */
  events: AnalyticsEventRow[];
  system: { runtime: "aws" | "local"; recognitionEngine: "rekognition" | "local"; lastProcessedAt: string | null };
}
