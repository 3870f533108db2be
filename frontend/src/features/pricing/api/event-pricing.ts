import { type EventPricing, type EventPricingDto, pricingMessages } from "@dorsal/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { eventPricingQueryOptions } from "../../../lib/queries/event-pricing";

export function saveEventPricing(eventId: number, pricing: EventPricing): Promise<EventPricingDto> {
  return apiFetch<EventPricingDto>(`/api/events/${eventId}/pricing`, { method: "POST", body: pricing });
}

export function useSaveEventPricing(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pricing: EventPricing) => saveEventPricing(eventId, pricing),
    meta: { errorTitle: pricingMessages.saveFailed },
    onSuccess: (saved) => queryClient.setQueryData(eventPricingQueryOptions(eventId).queryKey, saved),
  });
}
