import type { CleanupTempDto } from "@dorsal/shared";
import { adminApi } from "@dorsal/shared/contract/admin";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { apiCall } from "../../../lib/api-fetch";

const performanceKey = ["performance"] as const;

/** Spec §9 'Polling': performance and cache 30 s, queue 10 s, upload metrics 2 s. */
export const pollMs = { performance: 30_000, cache: 30_000, queue: 10_000, uploadActive: 2000, uploadIdle: 30_000 };

/** Stage times, memory, failures and SLA alerts of the last hour; read on every visit, then every 30 s. */
export function usePerformanceStats() {
  return useQuery({
    queryKey: [...performanceKey, "stats"],
    queryFn: ({ signal }) => apiCall(adminApi.performanceStats, { signal }),
    refetchInterval: pollMs.performance,
    staleTime: 0,
  });
}

/** The signed image URL cache. */
export function useCacheStats() {
  return useQuery({
    queryKey: [...performanceKey, "cache"],
    queryFn: ({ signal }) => apiCall(adminApi.cacheStats, { signal }),
    refetchInterval: pollMs.cache,
    staleTime: 0,
  });
}

/** The pipeline's queue, every 10 s. */
export function useQueueStats() {
  return useQuery({
    queryKey: [...performanceKey, "queue"],
    queryFn: ({ signal }) => apiCall(adminApi.asyncProcessingStats, { signal }),
    refetchInterval: pollMs.queue,
    staleTime: 0,
  });
}

/**
 * The asking admin's latest upload: every 2 s while its photos are still being processed (spec §9),
 * otherwise every 30 s, which is soon enough to notice a new upload started elsewhere.
 */
export function useUploadMetrics() {
  return useQuery({
    queryKey: [...performanceKey, "upload"],
    queryFn: ({ signal }) => apiCall(adminApi.uploadMetrics, { signal }),
    refetchInterval: (query) => (query.state.data?.isActive ? pollMs.uploadActive : pollMs.uploadIdle),
    staleTime: 0,
  });
}

/** Reads every figure of the screen again ('Actualizar'). */
export function useReloadPerformance() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: performanceKey }), [queryClient]);
}

/**
 * 'Limpiar archivos temporales'. A failure is a toast from the mutation cache (spec §2.7: cleanup
 * errors as toasts); the screen says the result itself.
 */
export function useCleanupTemp() {
  return useMutation({
    mutationFn: (): Promise<CleanupTempDto> => apiCall(adminApi.cleanupTemp),
    meta: { errorTitle: "Error al limpiar archivos temporales" },
  });
}
