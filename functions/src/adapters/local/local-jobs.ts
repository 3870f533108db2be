import {
  buildEventDeletionDefinition,
  type EventDeletionInput,
  eventDeletionExecutionName,
} from "../../jobs/event-deletion-definition";
import type { Logger } from "../../logger";
import type { BackgroundJobs } from "../../ports/background-jobs";
import { localFunctionArn, localStateMachine } from "./state-machine";

export interface LocalBackgroundJobs extends BackgroundJobs {
  /** Resolves when no workflow runs (tests wait on it). */
  idle(): Promise<void>;
  /** Stops every workflow between two slices and waits for the slice running now to end. */
  close(): Promise<void>;
}

/**
 * The background workflows on one machine: the same definitions CDK deploys, run by
 * aws-local-stepfunctions with each task mapped to the function its Lambda runs. Nothing is
 * journaled here: each workflow records its own progress in the table, and the runtime's start-up
 * starts again whatever a killed process left unfinished (`resumeEventDeletions`).
 */
export function createLocalBackgroundJobs(options: {
  deleteEventSlice: (input: EventDeletionInput) => Promise<{ done: boolean }>;
  logger: Logger;
}): LocalBackgroundJobs {
  const sliceArn = localFunctionArn("event-deletion");
  const deletion = localStateMachine(buildEventDeletionDefinition(sliceArn));
  const running = new Map<string, { abort(): void; settled: Promise<unknown> }>();
  const slicesRunning = new Set<Promise<unknown>>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const slice = (input: EventDeletionInput) => {
    // A workflow stopped by close() ends at its next slice rather than starting it on a closing table.
    if (closed) return Promise.reject(new Error("The runtime is closing"));
    const work = options.deleteEventSlice(input);
    slicesRunning.add(work);
    return work.finally(() => slicesRunning.delete(work));
  };

  return {
    async deleteEvent(input) {
      const name = eventDeletionExecutionName(input);
      if (closed || running.has(name)) return;
      const execution = deletion.run(input as never, {
        overrides: { taskResourceLocalHandlers: { DeleteSlice: slice as never } },
      });
      const settled = execution.result.then(
        () => options.logger.info("event deleted", { eventId: input.eventId }),
        (error: unknown) => {
          if (!closed) options.logger.error("event deletion failed", { eventId: input.eventId, error });
        },
      );
      running.set(name, { abort: () => execution.abort(), settled });
      void settled.finally(() => {
        running.delete(name);
        if (running.size === 0) {
          for (const resolve of idleWaiters) resolve();
          idleWaiters = [];
        }
      });
    },
    idle: () =>
      running.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idleWaiters.push(resolve);
          }),
    async close() {
      closed = true;
      for (const execution of running.values()) execution.abort();
      await Promise.allSettled([...slicesRunning, ...[...running.values()].map((execution) => execution.settled)]);
    },
  };
}
