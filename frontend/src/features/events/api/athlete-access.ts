import type { EventDto } from "@dorsal/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { eventsQueryOptions } from "../../../lib/queries/events";

/** 'Acceso deportistas': signed-in athletes see and download every photo of the event free (spec §1). */
export function setAthleteAccess({
  eventId,
  requiresAthleteLogin,
}: {
  eventId: number;
  requiresAthleteLogin: boolean;
}): Promise<EventDto> {
  return apiFetch<EventDto>(`/api/events/${eventId}/athlete-access`, {
    method: "POST",
    body: { requiresAthleteLogin },
  });
}

export function useSetAthleteAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAthleteAccess,
    meta: { errorMessage: (error) => `No se pudo cambiar el acceso de deportistas: ${error.message}` },
    // Every event query, the one event's included: the switch must show the stored state.
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey }),
  });
}
