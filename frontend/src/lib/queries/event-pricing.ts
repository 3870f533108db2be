import { api } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export const eventPricingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "pricing"],
    queryFn: ({ signal }) => apiCall(api.pricing.get, { params: { id: eventId }, signal }),
  });

export function useEventPricing(eventId: number) {
  return useQuery(eventPricingQueryOptions(eventId));
}
