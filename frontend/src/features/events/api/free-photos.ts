import { eventsApi } from "@dorsal/shared/contract/events";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventQueryOptions, eventsQueryOptions } from "../../../lib/queries/events";

/** 'Liberar Fotos Gratis' (enabled) / 'Proteger Fotos' (disabled): the public copies switch at once. */
export function useSetFreePhotos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, enabled }: { eventId: number; enabled: boolean }) =>
      apiCall(enabled ? eventsApi.enableFreePhotos : eventsApi.disableFreePhotos, { params: { id: eventId } }),
    // The button words the failure by what it was doing: freeing the photos or protecting them.
    meta: { errorToast: false },
    onSuccess: async (updated) => {
      // The answer is the event as stored now: the list shows it without waiting for a refetch.
      queryClient.setQueryData(eventsQueryOptions().queryKey, (events) =>
        events?.map((event) => (event.id === updated.id ? updated : event)),
      );
      queryClient.setQueryData(eventQueryOptions(updated.id).queryKey, updated);
      // Spec §7: the dashboard is refreshed after any event change.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
      ]);
    },
  });
}

/** The event's paid sales, read fresh each time the organizer is asked to free its photos. */
export function useEventSalesSummary(eventId: number, enabled: boolean) {
  return useQuery({
    queryKey: ["events", eventId, "sales-summary"],
    queryFn: ({ signal }) => apiCall(eventsApi.salesSummary, { params: { id: eventId }, signal }),
    enabled,
    staleTime: 0,
  });
}
