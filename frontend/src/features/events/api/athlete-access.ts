import { eventsApi } from "@dorsal/shared/contract/events";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { eventsQueryOptions } from "../../../lib/queries/events";

/** 'Acceso deportistas': signed-in athletes see and download every photo of the event free (spec §1). */
export function useSetAthleteAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, requiresAthleteLogin }: { eventId: number; requiresAthleteLogin: boolean }) =>
      apiCall(eventsApi.athleteAccess, { params: { id: eventId }, body: { requiresAthleteLogin } }),
    meta: { errorMessage: (error) => `No se pudo cambiar el acceso de deportistas: ${error.message}` },
    // Every event query, the one event's included: the switch must show the stored state.
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey }),
  });
}
