import { adminApi } from "@dorsal/shared/contract/admin";
import { queryOptions, useQueries } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** While photos are pending the counters move; once nothing is pending there is nothing to poll for. */
const pollWhilePendingMs = 5000;

export const eventProcessingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["processing", eventId],
    queryFn: ({ signal }) => apiCall(adminApi.processing, { params: { id: eventId }, signal }),
    refetchInterval: (query) => ((query.state.data?.pendingPhotos ?? 0) > 0 ? pollWhilePendingMs : false),
  });

export function useEventsProcessing(eventIds: number[]) {
  return useQueries({ queries: eventIds.map(eventProcessingQueryOptions) });
}
