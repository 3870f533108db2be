import type { EventDto, PreflightCheckName, PreflightRunDto, PreflightStatus, PreflightTrigger } from "@dorsal/shared";
import { formatCount } from "../../../lib/format";

/**
 * The preflight screen's words (spec §2.7 'Preflight dashboard'), in Spanish as every screen is
 * (issue 17, docs/spec-departures.md): 'Run Validation' is _Ejecutar validación_, 'Passed' _Correctas_…
 */
export const preflightText = {
  title: "Verificación previa",
  run: "Ejecutar validación",
  running: "Validando...",
  passed: "Correctas",
  warnings: "Advertencias",
  criticalFailures: "Fallas críticas",
  totalTime: "Tiempo total",
  failedPrefix: "Validación fallida:",
  unknownError: "Error desconocido durante la validación",
  never: "Nunca",
  autoRefresh: "Actualización automática (30 s)",
  refresh: "Actualizar",
  noEvent: "Sin evento (solo el sistema)",
} as const;

/** Spanish names of the server's checks, in the order it makes them. */
export const checkLabels: Record<PreflightCheckName, string> = {
  api: "API",
  signIn: "Inicio de sesión",
  probeEvent: "Evento de prueba",
  upload: "Subida de foto",
  pipeline: "Procesamiento",
  zip: "Importación ZIP",
  bibRead: "Lectura de dorsal",
  faces: "Detección de caras",
  search: "Búsqueda",
  images: "URLs firmadas",
  counters: "Contadores",
  cleanup: "Limpieza",
  payments: "Pagos",
  quotas: "Cuotas",
  event: "Evento",
  system: "Recursos del sistema",
};

export const statusLabels: Record<PreflightStatus, string> = {
  GREEN: "Correcto",
  YELLOW: "Advertencia",
  RED: "Falla crítica",
};

/** Chakra palettes of the three statuses. */
export const statusPalettes: Record<PreflightStatus, "green" | "yellow" | "red"> = {
  GREEN: "green",
  YELLOW: "yellow",
  RED: "red",
};

export const triggerLabels: Record<PreflightTrigger, string> = {
  manual: "Manual",
  schedule: "Programada",
  deploy: "Despliegue",
};

export const stateLabels: Record<PreflightRunDto["state"], string> = {
  running: "En curso",
  done: "Terminada",
  interrupted: "Interrumpida",
};

export const environmentLabels: Record<"local" | "aws", string> = {
  local: "Local (servidor propio)",
  aws: "AWS",
};

const oneDecimal = new Intl.NumberFormat("es-CO", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Spec §9: times under 1000 ms in ms, otherwise seconds with one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${oneDecimal.format(ms / 1000)} s`;
}

/** Spec §2.7: memory in whole MB. */
export function formatMegabytes(bytes: number): string {
  return `${formatCount(Math.round(bytes / (1024 * 1024)))} MB`;
}

/** Spec §2.7's selector options: 'name (ID: id)'. */
export function eventOptionLabel(event: Pick<EventDto, "id" | "name">): string {
  return `${event.name} (ID: ${event.id})`;
}

/** How many checks ended with each status. */
export function statusCounts(run: Pick<PreflightRunDto, "checks">): Record<PreflightStatus, number> {
  const counts: Record<PreflightStatus, number> = { GREEN: 0, YELLOW: 0, RED: 0 };
  for (const check of run.checks) counts[check.status] += 1;
  return counts;
}

/** The progress bar's value: the share of the run's checks that have a result, as a whole percent. */
export function progressPercent(run: Pick<PreflightRunDto, "checks" | "expectedChecks">): number {
  if (run.expectedChecks <= 0) return 0;
  return Math.min(100, Math.round((run.checks.length / run.expectedChecks) * 100));
}

/** What a failed start says after 'Validación fallida:'. */
export function startFailureMessage(error: Error | null): string {
  return error?.message.trim() ? error.message : preflightText.unknownError;
}
