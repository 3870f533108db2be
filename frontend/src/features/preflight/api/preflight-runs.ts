import type { PreflightRunDto, StartPreflightRequest } from "@dorsal/shared";
import { adminApi } from "@dorsal/shared/contract/admin";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { apiCall } from "../../../lib/api-fetch";

const preflightKey = ["preflight"] as const;
const runsKey = [...preflightKey, "runs"] as const;
const runKey = (runId: string) => [...preflightKey, "run", runId] as const;

/** A run in progress is read every second: its checks end a second or a few apart. */
const runPollMs = 1000;
const retryPollMs = 5000;

/** The latest runs, newest first (the server keeps 20), whoever started them; read on every visit. */
export function usePreflightRuns() {
  return useQuery({
    queryKey: runsKey,
    queryFn: ({ signal }) => apiCall(adminApi.preflightRuns, { signal }),
    staleTime: 0,
  });
}

/** One run, read every second while it is running; null reads nothing. */
export function usePreflightRun(runId: string | null) {
  return useQuery({
    queryKey: runKey(runId ?? ""),
    queryFn: ({ signal }) => apiCall(adminApi.preflightRun, { params: { runId: runId ?? "" }, signal }),
    enabled: runId !== null,
    // Until it ends; a failed read is shown and tried again more slowly (the run goes on meanwhile).
    refetchInterval: (query) => {
      if (query.state.status === "error") return retryPollMs;
      return query.state.data?.state === "running" ? runPollMs : false;
    },
    staleTime: 0,
  });
}

/**
 * Starts a run; the server answers at once with the run in state "running" (409 with its reason
 * when one is going already). The screen says a failure itself ('Validación fallida:').
 */
export function useStartPreflight() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StartPreflightRequest) => apiCall(adminApi.startPreflight, { body: request }),
    meta: { errorToast: false },
    onSuccess: (run: PreflightRunDto) => {
      queryClient.setQueryData(runKey(run.id), run);
    },
    // The new run joins the history; after a 409 the run already going does.
    onSettled: () => queryClient.invalidateQueries({ queryKey: runsKey }),
  });
}

/** Reads the history again (a run ended, or the organizer asked). */
export function useReloadRuns() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: runsKey }), [queryClient]);
}
