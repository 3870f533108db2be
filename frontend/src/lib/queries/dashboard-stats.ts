import { eventsApi } from "@dorsal/shared/contract/events";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export const dashboardStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["dashboard", "stats"],
    queryFn: ({ signal }) => apiCall(eventsApi.dashboardStats, { signal }),
  });

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}
