import type { CartQuoteRequest, CreateSaleRequest } from "@dorsal/shared";
import { browseApi } from "@dorsal/shared/contract/browse";
import { salesApi } from "@dorsal/shared/contract/sales";
import { keepPreviousData, skipToken, useMutation, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** The server prices the cart: the screen shows exactly what will be charged. */
export function useCartQuote(request: CartQuoteRequest | null) {
  return useQuery({
    queryKey: ["sales", "quote", request],
    queryFn: request ? ({ signal }) => apiCall(salesApi.quote, { body: request, signal }) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useCreateSale() {
  return useMutation({
    mutationFn: (body: CreateSaleRequest) => apiCall(salesApi.create, { body }),
    // The purchase form says why the payment could not start, next to its button.
    meta: { errorToast: false },
  });
}

/**
 * Photos of the cart that are not among the bib's: those the athlete's selfie found (issue 23),
 * shown as the public sees them so the buyer sees everything they pay for.
 */
export function useOtherCartPhotos(photoIds: string[]) {
  return useQuery({
    queryKey: ["photos", "by-ids", photoIds],
    queryFn:
      photoIds.length > 0 ? ({ signal }) => apiCall(browseApi.photosByIds, { body: { photoIds }, signal }) : skipToken,
  });
}
