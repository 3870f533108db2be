import type { Table } from "../ports/table";
import { keys } from "./keys";
import { queryAll } from "./query-all";

/**
 * Reads behind the dashboard's comparisons, from items the pipeline already keeps: the per-minute
 * counters and the "Sin dorsal" index. No new counter to maintain, and nothing to drift.
 */

/** A UTC minute as the per-minute counters key it (`YYYY-MM-DDTHH:MM`). */
export const minuteKey = (date: Date) => date.toISOString().slice(0, 16);

/**
 * Photos of the event that became searchable between two UTC minutes, both included, and in how
 * many of those minutes any did (the minutes the pipeline was busy with the event).
 */
export async function processedMinutesBetween(
  table: Table,
  eventId: number,
  from: Date,
  to: Date,
): Promise<{ processed: number; busyMinutes: number }> {
  const counters = await queryAll<{ count?: number }>(table, {
    partition: keys.event(eventId).pk,
    sortBetween: [
      keys.eventProcessedMinute(eventId, minuteKey(from)).sk,
      keys.eventProcessedMinute(eventId, minuteKey(to)).sk,
    ],
  });
  const busy = counters.filter((counter) => (counter.count ?? 0) > 0);
  return { processed: busy.reduce((sum, counter) => sum + (counter.count ?? 0), 0), busyMinutes: busy.length };
}

/**
 * Processed photos of the event without a bib. It pages through the sparse "Sin dorsal" index
 * (whole photo items, as the index projects everything): acceptable for an admin screen read a
 * few times a day, and exact where a counter kept beside the bib links could drift.
 */
export async function unbibbedCount(table: Table, eventId: number): Promise<number> {
  const photos = await queryAll<object>(table, { index: "gsi2", partition: keys.unbibbedPhotosPartition(eventId) });
  return photos.length;
}
