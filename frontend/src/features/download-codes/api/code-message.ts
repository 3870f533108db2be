import type { EventDto, IssuedDownloadCode } from "@dorsal/shared";
import { formatColombianDay } from "@dorsal/shared/mail-texts";

/** Spec §5: codes are only for events that are active and still sell their photos. */
export function codeEligibleEvents(events: EventDto[]): EventDto[] {
  return events.filter((event) => event.status === "active" && !event.freePhotosEnabled);
}

/**
 * Spec §9: dates in the Spanish locale; a code expires at a moment, shown as its day in Colombia,
 * the very words of its chat message and email (`codeChatMessage`, @dorsal/shared).
 */
export const formatValidUntil = formatColombianDay;

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
