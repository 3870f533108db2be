import type { EventPricingDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api-fetch";

export function getEventPricing(eventId: number, signal?: AbortSignal): Promise<EventPricingDto> {
  return apiFetch<EventPricingDto>(`/api/events/${eventId}/pricing`, { signal });
}

export const eventPricingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "pricing"],
    queryFn: ({ signal }) => getEventPricing(eventId, signal),
  });

export function useEventPricing(eventId: number) {
  return useQuery(eventPricingQueryOptions(eventId));
}
