import type { EventConfigDto, EventRecognitionConfig } from "@dorsal/shared";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

export function getEventConfig(eventId: number, signal?: AbortSignal): Promise<EventConfigDto> {
  return apiFetch<EventConfigDto>(`/api/events/${eventId}/config`, { signal });
}

export function updateEventConfig(eventId: number, config: EventRecognitionConfig): Promise<EventConfigDto> {
  return apiFetch<EventConfigDto>(`/api/events/${eventId}/config`, { method: "PUT", body: config });
}

export const eventConfigQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "config"],
    queryFn: ({ signal }) => getEventConfig(eventId, signal),
  });

export function useEventConfig(eventId: number) {
  return useQuery(eventConfigQueryOptions(eventId));
}

export function useUpdateEventConfig(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: EventRecognitionConfig) => updateEventConfig(eventId, config),
    meta: { errorTitle: "No se pudo guardar la configuración" },
    onSuccess: (saved) => queryClient.setQueryData(eventConfigQueryOptions(eventId).queryKey, saved),
  });
}
