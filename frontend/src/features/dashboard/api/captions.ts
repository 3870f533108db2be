import type { DashboardStats } from "@dorsal/shared";
import { formatCount } from "../../../lib/format";

/**
 * The stat cards' captions. The spec's were fixed texts ('+2 este mes', '87% precisión OCR'…);
 * these say the same kind of thing from the real figures (docs/features.md, Dashboard).
 */
export interface StatCaptions {
  activeEvents: string;
  processedPhotos: string;
  detectedDorsals: string;
  monthlySales: string;
}

/** This month's sales against last month's, as a whole percent; nothing to compare with when last month sold nothing. */
export function salesComparison(current: number, previous: number): string {
  if (previous === 0) return "sin ventas el mes anterior";
  const change = Math.round(((current - previous) / previous) * 100);
  return `${change > 0 ? "+" : ""}${formatCount(change)}% vs mes anterior`;
}

export function statCaptions(stats: DashboardStats): StatCaptions {
  return {
    activeEvents: `+${formatCount(stats.eventsCreatedThisMonth)} este mes`,
    processedPhotos: `+${formatCount(stats.processedToday)} hoy`,
    detectedDorsals:
      stats.photosWithBibPercent === null
        ? "aún no hay fotos procesadas"
        : `${formatCount(stats.photosWithBibPercent)}% fotos con dorsal`,
    monthlySales: salesComparison(stats.monthlySales, stats.previousMonthSales),
  };
}
