import type { AnalyticsDto, AnalyticsRange } from "@dorsal/shared";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** Spec §9: analytics are read again every 30 s while the screen is open. */
const refreshMs = 30_000;

export function getAnalytics(range: AnalyticsRange, eventId: number | null, signal?: AbortSignal) {
  const query = new URLSearchParams({ range });
  if (eventId !== null) query.set("eventId", String(eventId));
  return apiFetch<AnalyticsDto>(`/api/analytics?${query}`, { signal });
}

export function useAnalytics(range: AnalyticsRange, eventId: number | null) {
  return useQuery({
    queryKey: ["analytics", range, eventId],
    queryFn: ({ signal }) => getAnalytics(range, eventId, signal),
    refetchInterval: refreshMs,
    // Switching range or event keeps the last figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
