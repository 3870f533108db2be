import type { RerunFailedRequest } from "@dorsal/shared";
import { adminApi } from "@dorsal/shared/contract/admin";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const pageSize = 25;

export const failedPhotosKey = ["failed-photos"] as const;

/** The dead-letter list, a page at a time ('Cargar más' follows the server's cursor). */
export function useFailedPhotos(eventId: number | undefined) {
  return useInfiniteQuery({
    queryKey: [...failedPhotosKey, eventId ?? "all"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiCall(adminApi.failedPhotos, { query: { limit: pageSize, eventId, cursor: pageParam ?? undefined }, signal }),
    getNextPageParam: (page) => page.cursor,
  });
}

/**
 * Re-runs some photos, or every failed photo of one event: the server handles a bounded batch per
 * call and says whether more remain, so the whole event is followed call after call.
 */
async function rerunAll(request: RerunFailedRequest): Promise<number> {
  let requeued = 0;
  let next = request;
  for (;;) {
    const result = await apiCall(adminApi.rerunFailed, { body: next });
    requeued += result.requeued;
    // A batch that started nothing would start nothing again: stop rather than spin.
    if (!result.more || result.requeued === 0 || !("eventId" in next)) return requeued;
    // The same cut-off on every call: photos that fail again meanwhile are not re-run in a loop.
    next = { eventId: next.eventId, ...(result.failedBefore ? { failedBefore: result.failedBefore } : {}) };
  }
}

export function useRerunFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rerunAll,
    meta: { errorTitle: "No se pudo reintentar" },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: failedPhotosKey }),
        queryClient.invalidateQueries({ queryKey: ["processing"] }),
        queryClient.invalidateQueries({ queryKey: ["events"] }),
      ]),
  });
}
