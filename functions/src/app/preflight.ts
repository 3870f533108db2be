import { messages, type PreflightRunDto, type PreflightRunList, type StartPreflightRequest } from "@dorsal/shared";
import { recordPreflightRun } from "../preflight/run";
import type { Deps } from "./deps";
import { conflict, notFound, unavailable } from "./errors";
import type { SessionClaims } from "./tokens";

/** Runs the history shows: a run every 6 hours and the admins' own make this about a week. */
const historyLength = 20;

/**
 * /preflight's 'Run Validation': records the run and starts it in the background (it takes
 * minutes, longer than an HTTP request may); the screen then polls the run.
 */
export async function startPreflight(
  deps: Deps,
  session: SessionClaims,
  request: StartPreflightRequest,
): Promise<PreflightRunDto> {
  const eventId = request.eventId ?? null;
  if (eventId !== null && !(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const run = await recordPreflightRun(deps, { trigger: "manual", eventId, requestedBy: session.email });
  if (!run) throw conflict(messages.preflightRunning);
  try {
    await deps.preflight.launch(run.id);
  } catch (error) {
    deps.logger.error("could not launch a preflight run", error);
    const ended = deps.clock.now();
    await deps.preflightRuns.save({
      ...run,
      state: "done",
      status: "RED",
      endedAt: ended.toISOString(),
      totalMs: ended.getTime() - Date.parse(run.startedAt),
      checks: [
        { name: "system", status: "RED", ms: 0, detail: messages.preflightUnavailable, at: ended.toISOString() },
      ],
    });
    await deps.preflightRuns.unlock(run.id);
    throw unavailable(messages.preflightUnavailable);
  }
  return run;
}

export async function listPreflightRuns(deps: Deps): Promise<PreflightRunList> {
  return { runs: await deps.preflightRuns.latest(historyLength) };
}

export async function getPreflightRun(deps: Deps, runId: string): Promise<PreflightRunDto> {
  const run = await deps.preflightRuns.get(runId);
  if (!run) throw notFound(messages.preflightRunNotFound);
  return run;
}
