import type { Table } from "../ports/table";
import { keys } from "./keys";
import { queryAll } from "./query-all";

/**
 * Reads behind the dashboard's comparisons, from items the pipeline already keeps: the per-minute
 * counters.
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
