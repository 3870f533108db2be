import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { formatCount } from "../../../lib/format";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";
import { type ReindexProgress, reindexEvent } from "../api/reindex-event";

export type ReindexState = { running: false } | ({ running: true } & ReindexProgress);

export function changedPhotosText(changed: number): string {
  if (changed === 0) return "Ninguna foto cambió";
  return changed === 1 ? "1 foto cambió" : `${formatCount(changed)} fotos cambiaron`;
}

/**
 * Runs a re-index of the event with progress and cancel. Leaving the screen cancels it, like an
 * upload: nobody would be watching it finish.
 */
export function useReindex(eventId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ReindexState>({ running: false });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const refresh = useCallback(
    () =>
      Promise.all([
        // The event's key covers its photo lists.
        queryClient.invalidateQueries({ queryKey: ["events", eventId] }),
        queryClient.invalidateQueries({ queryKey: ["photos", "search"] }),
        queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
      ]),
    [queryClient, eventId],
  );

  const start = useCallback(async () => {
    if (controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    let last: ReindexProgress = { pages: 0, processed: 0, changed: 0 };
    setState({ running: true, ...last });
    try {
      const result = await reindexEvent(
        eventId,
        (progress) => {
          last = progress;
          setState({ running: true, ...progress });
        },
        abort.signal,
      );
      if (result.complete) {
        toaster.create({
          type: "success",
          title: "Dorsales re-indexados",
          description: changedPhotosText(result.changed),
        });
      } else {
        toaster.create({
          type: "info",
          title: "Re-indexación cancelada",
          description: `Fotos revisadas: ${formatCount(result.processed)}. ${changedPhotosText(result.changed)}.`,
        });
      }
    } catch (error) {
      if (abort.signal.aborted) {
        toaster.create({
          type: "info",
          title: "Re-indexación cancelada",
          description: `Fotos revisadas: ${formatCount(last.processed)}. ${changedPhotosText(last.changed)}.`,
        });
      } else {
        toaster.create({
          type: "error",
          title: "No se pudieron re-indexar los dorsales",
          description: error instanceof Error ? error.message : String(error),
        });
      }
    } finally {
      controller.current = null;
      setState({ running: false });
      // Pages already done changed photos even when the run stopped early.
      await refresh();
    }
  }, [eventId, refresh]);

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { state, start, cancel };
}
