import type { AnalyticsDto, AnalyticsRange } from "./analytics";
import { formatPrice } from "./pricing";

// The analytics screen's words, shared with the PDF report, imported as
// "@dorsal/shared/analytics-words". Not in the package's index, which every page loads: a lazy
// page's code reached from the index would join the first load's script (the /search budget,
// tests/integration/bundle-budget.test.ts); this way it loads with the analytics page.

/**
 * How the screen and the PDF report name a range: the button's label, the period as it ends a
 * sentence ('4 procesadas en las últimas 24 horas') and as a heading of its own (the report's).
 */
export const analyticsRangeLabels: Record<AnalyticsRange, { label: string; period: string; title: string }> = {
  "24h": { label: "24h", period: "en las últimas 24 horas", title: "Últimas 24 horas" },
  "7d": { label: "7 días", period: "en los últimos 7 días", title: "Últimos 7 días" },
  "30d": { label: "30 días", period: "en los últimos 30 días", title: "Últimos 30 días" },
};

// Made on first use, as formatPrice's: the module loads with every screen of the app.
let number: Intl.NumberFormat | undefined;
let oneDecimal: Intl.NumberFormat | undefined;

/** Spec §9: numbers in analytics use es-ES, up to two decimals. */
export function formatAnalyticsNumber(value: number): string {
  number ??= new Intl.NumberFormat("es-ES", { maximumFractionDigits: 2 });
  return number.format(value);
}

/** Spec §9: times under 1000 ms in ms, otherwise seconds with one decimal. */
export function formatProcessingTime(ms: number): string {
  oneDecimal ??= new Intl.NumberFormat("es-ES", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return ms < 1000 ? `${Math.round(ms)} ms` : `${oneDecimal.format(ms / 1000)} s`;
}

/** A share of a total as a whole percent (0 when there is no total). */
export function percentOf(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 100);
}

/** '1 foto', '2 fotos'. */
export const countOf = (count: number, one: string, many: string) =>
  `${formatAnalyticsNumber(count)} ${count === 1 ? one : many}`;

export interface AnalyticsKpi {
  label: string;
  /** The figure; undefined while the figures load. */
  value: string | undefined;
  /** What the figure is compared with; undefined while the figures load. */
  caption: string | undefined;
}

/** The four headline figures, in the same words on the screen and in the PDF report. */
export function analyticsKpis(data: AnalyticsDto | undefined, range: AnalyticsRange): AnalyticsKpi[] {
  const { period } = analyticsRangeLabels[range];
  return [
    {
      label: "Fotos totales",
      value: data && formatAnalyticsNumber(data.totalPhotos),
      caption: data && countOf(data.processingStats.successful, "procesada", "procesadas"),
    },
    {
      label: "Dorsales detectados",
      value: data && formatAnalyticsNumber(data.totalDorsals),
      caption: data && countOf(data.uniqueDorsals, "dorsal único", "dorsales únicos"),
    },
    {
      label: "Velocidad de procesamiento",
      value: data && (data.processingRate === null ? "—" : `${formatAnalyticsNumber(data.processingRate)} fotos/min`),
      caption: data && `${countOf(data.processedInRange, "procesada", "procesadas")} ${period}`,
    },
    {
      label: "Ventas",
      value: data && formatPrice(data.salesStats.totalRevenue),
      caption: data && `${countOf(data.salesStats.totalSales, "venta", "ventas")} ${period}`,
    },
  ];
}

/** The processing states with their share of all photos, as the screen's bars show them. */
export function processingStates(data: AnalyticsDto): { label: string; count: number; percent: number }[] {
  const { successful, failed, pending, duplicates } = data.processingStats;
  return [
    { label: "Exitosas", count: successful },
    { label: "Fallidas", count: failed },
    { label: "Pendientes", count: pending },
    { label: "Duplicadas", count: duplicates },
  ].map((state) => ({ ...state, percent: percentOf(state.count, data.totalPhotos) }));
}

/** 'Reconocimiento de dorsales': label and value of each figure. */
export function recognitionFigures(data: AnalyticsDto): [string, string][] {
  const { photosWithBibPercent, averageProcessingMs, facesDetected } = data.recognition;
  return [
    ["Fotos con dorsal", photosWithBibPercent === null ? "—" : `${photosWithBibPercent}%`],
    [
      "Dorsales por foto",
      data.averageDorsalsPerPhoto === null ? "—" : formatAnalyticsNumber(data.averageDorsalsPerPhoto),
    ],
    ["Tiempo medio por foto", averageProcessingMs === null ? "—" : formatProcessingTime(averageProcessingMs)],
    ["Caras detectadas", formatAnalyticsNumber(facesDetected)],
  ];
}
