import type { EventRecognitionConfig } from "@dorsal/shared";
import { eventsApi } from "@dorsal/shared/contract/events";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { eventsQueryOptions } from "../../../lib/queries/events";

export const eventConfigQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "config"],
    queryFn: ({ signal }) => apiCall(eventsApi.config, { params: { id: eventId }, signal }),
  });

export function useEventConfig(eventId: number) {
  return useQuery(eventConfigQueryOptions(eventId));
}

export function useUpdateEventConfig(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EventRecognitionConfig) => apiCall(eventsApi.updateConfig, { params: { id: eventId }, body }),
    meta: { errorTitle: "No se pudo guardar la configuración" },
    onSuccess: (saved) => queryClient.setQueryData(eventConfigQueryOptions(eventId).queryKey, saved),
  });
}

/** 'Búsqueda por selfie' on or off; off deletes the event's faces before the answer. */
export function useSetFaceSearch(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => apiCall(eventsApi.setFaceSearch, { params: { id: eventId }, body: { enabled } }),
    meta: { errorTitle: "No se pudo cambiar la búsqueda por selfie" },
    onSuccess: (saved) => {
      queryClient.setQueryData(eventConfigQueryOptions(eventId).queryKey, saved);
      // The public event list says whether /search offers the selfie.
      void queryClient.invalidateQueries({ queryKey: eventsQueryOptions().queryKey });
    },
  });
}
