import type { CreateEventRequest } from "@dorsal/shared";
import { eventsApi } from "@dorsal/shared/contract/events";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventsQueryOptions } from "../../../lib/queries/events";

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateEventRequest) => apiCall(eventsApi.create, { body }),
    meta: { errorMessage: "No se pudo crear el evento" },
    onSuccess: async () => {
      // Spec §7: the dashboard figures count events too, so both caches go stale together.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
      ]);
    },
  });
}
