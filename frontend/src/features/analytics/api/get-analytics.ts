import type { AnalyticsRange } from "@dorsal/shared";
import { adminApi } from "@dorsal/shared/contract/admin";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** Spec §9: analytics are read again every 30 s while the screen is open. */
const refreshMs = 30_000;

export function useAnalytics(range: AnalyticsRange, eventId: number | null) {
  return useQuery({
    queryKey: ["analytics", range, eventId],
    queryFn: ({ signal }) => apiCall(adminApi.analytics, { query: { range, eventId: eventId ?? undefined }, signal }),
    refetchInterval: refreshMs,
    // Switching range or event keeps the last figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
