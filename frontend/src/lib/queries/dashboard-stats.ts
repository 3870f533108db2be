import type { DashboardStats } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api-fetch";

export function getDashboardStats(signal?: AbortSignal): Promise<DashboardStats> {
  return apiFetch<DashboardStats>("/api/dashboard/stats", { signal });
}

export const dashboardStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["dashboard", "stats"],
    queryFn: ({ signal }) => getDashboardStats(signal),
  });

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}
