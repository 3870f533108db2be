import { type EventPricing, pricingMessages } from "@dorsal/shared";
import { pricingApi } from "@dorsal/shared/contract/pricing";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { eventPricingQueryOptions } from "../../../lib/queries/event-pricing";

export function useSaveEventPricing(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pricing: EventPricing) => apiCall(pricingApi.save, { params: { id: eventId }, body: pricing }),
    meta: { errorTitle: pricingMessages.saveFailed },
    onSuccess: (saved) => queryClient.setQueryData(eventPricingQueryOptions(eventId).queryKey, saved),
  });
}
