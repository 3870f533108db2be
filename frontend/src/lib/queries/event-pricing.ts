import { pricingApi } from "@dorsal/shared/contract/pricing";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../api-fetch";

export const eventPricingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: ["events", eventId, "pricing"],
    queryFn: ({ signal }) => apiCall(pricingApi.get, { params: { id: eventId }, signal }),
  });

export function useEventPricing(eventId: number) {
  return useQuery(eventPricingQueryOptions(eventId));
}
