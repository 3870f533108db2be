import type { PreflightRunDto } from "@dorsal/shared";
import type { Clock } from "../ports/clock";
import type { Table } from "../ports/table";
import { keys, preflightRunsPartition } from "./keys";

/** A run is kept 90 days (the table's TTL on AWS): enough to compare race days. */
const keptSeconds = 90 * 24 * 3600;

/**
 * A run longer than this is over whatever its record says: Lambda stops the function at 15
 * minutes, and a local process that was stopped never writes its end.
 */
export const preflightRunMaxMs = 16 * 60 * 1000;

export function createPreflightRunRepository(table: Table, clock: Clock) {
  const isStale = (run: PreflightRunDto) =>
    run.state === "running" && clock.now().getTime() - Date.parse(run.startedAt) > preflightRunMaxMs;
  const current = (run: PreflightRunDto): PreflightRunDto => (isStale(run) ? { ...run, state: "interrupted" } : run);
  const strip = ({ pk: _pk, sk: _sk, ttl: _ttl, ...run }: PreflightRunDto & { pk: string; sk: string; ttl: number }) =>
    current(run);

  return {
    async save(run: PreflightRunDto): Promise<void> {
      const ttl = Math.floor(Date.parse(run.startedAt) / 1000) + keptSeconds;
      await table.put({ ...keys.preflightRun(run.id), ...run, ttl });
    },

    async get(runId: string): Promise<PreflightRunDto | undefined> {
      const item = await table.get<PreflightRunDto & { pk: string; sk: string; ttl: number }>(keys.preflightRun(runId));
      return item ? strip(item) : undefined;
    },

    /** The latest runs, newest first; a run whose process stopped reads as interrupted. */
    async latest(limit: number): Promise<PreflightRunDto[]> {
      const page = await table.query<PreflightRunDto & { pk: string; sk: string; ttl: number }>({
        partition: preflightRunsPartition,
        sortPrefix: "RUN#",
        descending: true,
        limit,
      });
      return page.items.map(strip);
    },

    /**
     * Takes the lock for `runId` unless a run that is not over holds it: false then. Two steps
     * (dynalite has no transactions): create it if absent, else take it over if its holder ended
     * or went stale.
     */
    async lock(runId: string): Promise<boolean> {
      const now = clock.now();
      const holder = { runId, takenAt: now.toISOString() };
      if (await table.put({ ...keys.preflightLock(), ...holder }, { ifAbsent: true })) return true;
      const staleBefore = new Date(now.getTime() - preflightRunMaxMs).toISOString();
      const taken = await table.update({
        key: keys.preflightLock(),
        set: holder,
        conditions: [{ attribute: "takenAt", op: "<", value: staleBefore }],
      });
      return taken !== undefined;
    },

    /** Hands the lock back, if `runId` still holds it. */
    async unlock(runId: string): Promise<void> {
      await table.update({
        key: keys.preflightLock(),
        set: { takenAt: "" },
        conditions: [{ attribute: "runId", op: "=", value: runId }],
      });
    },
  };
}
export type PreflightRunRepository = ReturnType<typeof createPreflightRunRepository>;
