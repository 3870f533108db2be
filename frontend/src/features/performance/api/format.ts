import type { CleanupTempDto, MeasuredStage, PerformanceStatsDto, SlaAlertDto } from "@dorsal/shared";
import { formatBytes, formatCount } from "../../../lib/format";

/**
 * The performance screen's words (spec §2.7 'Performance dashboard'), in Spanish as every screen
 * is (issue 17, docs/spec-departures.md): 'Performance' is _Rendimiento_.
 */
export const performanceText = {
  title: "Rendimiento",
  noDataHour: "sin datos en la última hora",
  cleanup: "Limpiar archivos temporales",
  cleaning: "Limpiando...",
  refresh: "Actualizar",
  loadFailed: "Error cargando las métricas de rendimiento",
} as const;

/** The pipeline's stages in the organizer's words, in the order a photo goes through them. */
export const stageLabels: Record<MeasuredStage, string> = {
  variants: "Copias (web, miniatura, vistas previas)",
  detect: "Lectura (dorsales y caras)",
  record: "Registro",
  searchable: "De la llegada a buscable",
};

const oneDecimal = new Intl.NumberFormat("es-CO", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const upToOneDecimal = new Intl.NumberFormat("es-CO", { maximumFractionDigits: 1 });

/** Spec §9: times under 1000 ms in ms, otherwise seconds with one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${oneDecimal.format(ms / 1000)} s`;
}

/** Spec §9: memory in whole MB. */
export function formatMegabytes(bytes: number): string {
  return `${formatCount(Math.round(bytes / (1024 * 1024)))} MB`;
}

/** A rate 0..1 as a rounded percent (spec §9: success rate as a rounded percent). */
export function formatPercent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** Photos per minute with at most one decimal ('1,5'). */
export function formatRate(value: number): string {
  return upToOneDecimal.format(value);
}

/** '1 foto', '2 fotos'. */
export function countOf(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** Spec §9: a cache hit rate is good at 80 % or more, a warning at 60 % or more, bad below. */
export function hitRatePalette(rate: number): "green" | "orange" | "red" {
  const percent = Math.round(rate * 100);
  return percent >= 80 ? "green" : percent >= 60 ? "orange" : "red";
}

/** The SLA alert's Chakra status: critical is red, a warning orange. */
export function alertStatus(alert: Pick<SlaAlertDto, "severity">): "error" | "warning" {
  return alert.severity === "critical" ? "error" : "warning";
}

export const severityLabels: Record<SlaAlertDto["severity"], string> = {
  warning: "Advertencia",
  critical: "Crítico",
};

/**
 * Whether any photo went through a stage in the last hour. Memory is read on its own (locally the
 * runtime reads it from the start), so it does not count.
 */
export function photosMeasured(stats: Pick<PerformanceStatsDto, "stages">): boolean {
  return stats.stages.some((stage) => stage.count > 0);
}

/** What 'Limpiar archivos temporales' says it did. */
export function cleanupMessage(result: CleanupTempDto): string {
  if (result.cleanedFiles === 0) return "No había archivos temporales que eliminar";
  const size = formatBytes(result.cleanedBytes);
  return result.cleanedFiles === 1
    ? `Se eliminó 1 archivo (${size})`
    : `Se eliminaron ${formatCount(result.cleanedFiles)} archivos (${size})`;
}

/** A share as a whole percent of the progress bar (0 with nothing to count). */
export function progressPercent(done: number, total: number): number {
  return total <= 0 ? 0 : Math.min(100, Math.round((done / total) * 100));
}

/**
 * The bars of the memory chart: each reading's resident memory (and heap, when known) as a share
 * of the highest reading, so the tallest bar fills the chart.
 */
export function memoryBars(
  readings: PerformanceStatsDto["memoryTrend"],
): { at: string; rss: number; heapUsed: number | null; rssShare: number; heapShare: number | null }[] {
  const top = Math.max(0, ...readings.map((reading) => reading.rss));
  return readings.map((reading) => ({
    ...reading,
    rssShare: top > 0 ? reading.rss / top : 0,
    heapShare: reading.heapUsed === null || top === 0 ? null : Math.min(1, reading.heapUsed / top),
  }));
}
