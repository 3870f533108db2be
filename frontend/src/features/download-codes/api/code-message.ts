import type { DownloadCodeResult, EventDto, IssuedDownloadCode } from "@dorsal/shared";
import { formatDayOf } from "../../../lib/format";

/** Spec §5: codes are only for events that are active and still sell their photos. */
export function codeEligibleEvents(events: EventDto[]): EventDto[] {
  return events.filter((event) => event.status === "active" && !event.freePhotosEnabled);
}

/** Spec §9: dates in the Spanish locale; a code expires at a moment, shown as its local day. */
export const formatValidUntil = formatDayOf;

/**
 * Spec §2.7: the ready chat message the organizer pastes back to the customer who paid. It says
 * where to use the code, since the customer may not have the site open any more.
 */
export function codeChatMessage(result: DownloadCodeResult, origin: string): string {
  return [
    `¡Hola! Confirmamos tu pago de las fotos de ${result.eventName}.`,
    `Tu código de descarga: ${result.code}`,
    `Dorsal: ${result.dorsalNumber}`,
    `Válido hasta: ${formatValidUntil(result.expiresAt)}`,
    `Descargas permitidas por foto: ${result.maxDownloads}`,
    `Busca tu dorsal en ${origin}/search y usa el código para descargar tus fotos sin marca de agua.`,
  ].join("\n");
}

export type CodeStatus = "active" | "used" | "spent" | "expired";

/**
 * Whether the customer can still use the code. The limit counts per photo (docs/features.md), so a code in
 * use may still have downloads left; it is spent when the bib's most downloaded photo reached it.
 */
export function codeStatus(code: IssuedDownloadCode, now: Date): CodeStatus {
  if (new Date(code.expiresAt).getTime() <= now.getTime()) return "expired";
  if (code.photoCount > 0 && code.remainingDownloads <= 0) return "spent";
  return code.isUsed ? "used" : "active";
}
