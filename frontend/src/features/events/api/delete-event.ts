import type { DeleteEventRequest, EventDeletionDto } from "@dorsal/shared";
import { eventsApi } from "@dorsal/shared/contract/events";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventQueryOptions, eventsQueryOptions } from "../../../lib/queries/events";

/** How often the screen asks again while a deletion runs: its progress moves every slice (~2 s locally). */
const runningRefreshMs = 2000;

export const eventDeletionsQueryOptions = () =>
  queryOptions({
    queryKey: ["event-deletions"],
    queryFn: ({ signal }) => apiCall(eventsApi.deletions, { signal }),
    refetchInterval: (query) =>
      query.state.data?.some((deletion: EventDeletionDto) => deletion.status === "running") ? runningRefreshMs : false,
  });

export const useEventDeletions = () => useQuery(eventDeletionsQueryOptions());

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, adminPassword }: { eventId: number } & DeleteEventRequest) =>
      apiCall(eventsApi.remove, { params: { id: eventId }, body: { adminPassword } }),
    // The dialog shows the reason next to the password and words its toast to match.
    meta: { errorToast: false },
    onSuccess: async (_, { eventId }) => {
      // Removed, not invalidated: a refetch of the deleted event (its photos, its config) could only 404.
      queryClient.removeQueries({ queryKey: eventQueryOptions(eventId).queryKey });
      // Spec §7: the dashboard figures count events too, so both caches go stale together.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: eventDeletionsQueryOptions().queryKey }),
      ]);
    },
  });
}
