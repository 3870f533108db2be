import type { AnalyticsRange } from "@dorsal/shared";
import type { FileAnswer } from "@dorsal/shared/contract";
import { analytics } from "./analytics";
import { renderAnalyticsPdf, reportTimeZone } from "./analytics-pdf";
import type { Deps } from "./deps";

// en-CA writes dates as ISO does (2026-11-27), in Colombia's calendar day.
const reportDay = new Intl.DateTimeFormat("en-CA", { timeZone: reportTimeZone });

/** An event's name as a file name's part: lowercase ASCII letters, digits and hyphens. */
export function filenamePart(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
}

/**
 * The analytics PDF (issue 22): the figures `analytics` gives the screen for the same query,
 * read once by the same function, laid out as a report to download as
 * `estadisticas-<event or todos>-<day>.pdf`.
 */
export async function analyticsReport(
  deps: Deps,
  query: { range: AnalyticsRange; eventId?: number | undefined },
): Promise<FileAnswer> {
  const data = await analytics(deps, query);
  // analytics() has refused an unknown event already; one deleted since then keeps its number.
  const eventName =
    query.eventId === undefined ? null : ((await deps.events.get(query.eventId))?.name ?? `Evento ${query.eventId}`);
  const subject = eventName === null ? "todos" : filenamePart(eventName) || `evento-${query.eventId}`;
  return {
    contentType: "application/pdf",
    filename: `estadisticas-${subject}-${reportDay.format(new Date(data.generatedAt))}.pdf`,
    bytes: await renderAnalyticsPdf(data, eventName),
  };
}
