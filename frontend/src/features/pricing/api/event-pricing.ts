import type { EventPricing, EventPricingDto } from "@dorsal/shared";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

export function getEventPricing(eventId: number, signal?: AbortSignal): Promise<EventPricingDto> {
  return apiFetch<EventPricingDto>(`/api/events/${eventId}/pricing`, { signal });
}

export function saveEventPricing(eventId: number, pricing: EventPricing): Promise<EventPricingDto> {
  return apiFetch<EventPricingDto>(`/api/events/${eventId}/pricing`, { method: "POST", body: pricing });
}

export const eventPricingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "pricing"],
    queryFn: ({ signal }) => getEventPricing(eventId, signal),
  });

export function useEventPricing(eventId: number) {
  return useQuery(eventPricingQueryOptions(eventId));
}

export function useSaveEventPricing(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pricing: EventPricing) => saveEventPricing(eventId, pricing),
    onSuccess: (saved) => queryClient.setQueryData(eventPricingQueryOptions(eventId).queryKey, saved),
  });
}
