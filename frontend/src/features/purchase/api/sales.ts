import type { CartQuote, CartQuoteRequest, CreateSaleRequest, CreateSaleResponse } from "@dorsal/shared";
import { keepPreviousData, skipToken, useMutation, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** The server prices the cart: the screen shows exactly what will be charged. */
export function useCartQuote(request: CartQuoteRequest | null) {
  return useQuery({
    queryKey: ["sales", "quote", request],
    queryFn: request
      ? ({ signal }) => apiFetch<CartQuote>("/api/sales/quote", { method: "POST", body: request, signal })
      : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useCreateSale() {
  return useMutation({
    mutationFn: (request: CreateSaleRequest) =>
      apiFetch<CreateSaleResponse>("/api/sales/create", { method: "POST", body: request }),
    // The purchase form says why the payment could not start, next to its button.
    meta: { errorToast: false },
  });
}
