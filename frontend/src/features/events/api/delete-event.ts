import type { DeleteEventRequest } from "@dorsal/shared";
import { api } from "@dorsal/shared/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventQueryOptions, eventsQueryOptions } from "../../../lib/queries/events";

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, adminPassword }: { eventId: number } & DeleteEventRequest) =>
      apiCall(api.events.remove, { params: { id: eventId }, body: { adminPassword } }),
    // The dialog shows the reason next to the password and words its toast to match.
    meta: { errorToast: false },
    onSuccess: async (_, { eventId }) => {
      // Removed, not invalidated: a refetch of the deleted event (its photos, its config) could only 404.
      queryClient.removeQueries({ queryKey: eventQueryOptions(eventId).queryKey });
      // Spec §7: the dashboard figures count events too, so both caches go stale together.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
      ]);
    },
  });
}
