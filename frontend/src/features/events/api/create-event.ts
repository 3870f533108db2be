import type { CreateEventRequest, EventDto } from "@dorsal/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { eventsQueryOptions } from "../../../lib/queries/events";

export function createEvent(input: CreateEventRequest): Promise<EventDto> {
  return apiFetch<EventDto>("/api/events", { method: "POST", body: input });
}

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEvent,
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
