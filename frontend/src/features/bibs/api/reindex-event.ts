import type { ReindexResponse } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import { apiCall } from "../../../lib/api-fetch";

export function reindexPage(eventId: number, cursor: string | null, signal?: AbortSignal) {
  return apiCall(photosApi.reindex, { params: { id: eventId }, body: { cursor }, signal });
}

export interface ReindexProgress {
  pages: number;
  processed: number;
  changed: number;
}

/**
 * Re-indexes a whole event one page per call, following the server's cursor, and reports the
 * running totals after each page. Stops between pages when `signal` aborts; a page the server
 * already started still finishes there, which is harmless because re-indexing is idempotent.
 */
export async function reindexEvent(
  eventId: number,
  onProgress: (progress: ReindexProgress) => void,
  signal: AbortSignal,
): Promise<ReindexProgress & { complete: boolean }> {
  let progress: ReindexProgress = { pages: 0, processed: 0, changed: 0 };
  let cursor: string | null = null;
  do {
    const page: ReindexResponse = await reindexPage(eventId, cursor, signal);
    progress = {
      pages: progress.pages + 1,
      processed: progress.processed + page.processed,
      changed: progress.changed + page.changed,
    };
    onProgress(progress);
    cursor = page.cursor;
  } while (cursor && !signal.aborted);
  return { ...progress, complete: cursor === null };
}
