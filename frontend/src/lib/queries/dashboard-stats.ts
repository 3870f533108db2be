import { api } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export const dashboardStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["dashboard", "stats"],
    queryFn: ({ signal }) => apiCall(api.events.dashboardStats, { signal }),
  });

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}
