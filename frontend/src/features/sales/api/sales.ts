import { salesApi } from "@dorsal/shared/contract/sales";
import { skipToken, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const salesPageSize = 50;
const salesKey = ["admin-sales"] as const;

/** An event's sales, oldest first, 50 at a time; with `search`, those whose buyer email or reference contains it. */
export function useEventSales(eventId: number | null, search: string) {
  return useInfiniteQuery({
    queryKey: [...salesKey, eventId, search],
    initialPageParam: undefined as string | undefined,
    queryFn:
      eventId === null
        ? skipToken
        : ({ pageParam, signal }) =>
            apiCall(salesApi.list, {
              query: { eventId, limit: salesPageSize, cursor: pageParam, q: search || undefined },
              signal,
            }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A new download link for a paid sale, emailed to the buyer if asked; every older one stops working. */
export function useNewSaleLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ saleId, sendEmail }: { saleId: string; sendEmail: boolean }) =>
      apiCall(salesApi.newLink, { params: { saleId }, body: { sendEmail } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: salesKey }),
  });
}
