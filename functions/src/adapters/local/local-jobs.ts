import {
  type BackgroundJob,
  backgroundJobs,
  buildJobDefinition,
  type EventJobInput,
  jobExecutionName,
} from "../../jobs/definitions";
import type { Logger } from "../../logger";
import type { BackgroundJobs } from "../../ports/background-jobs";
import { localFunctionArn, localStateMachine } from "./state-machine";

export interface LocalBackgroundJobs extends BackgroundJobs {
  /** Resolves when no workflow runs (tests wait on it). */
  idle(): Promise<void>;
  /** Stops every workflow between two slices and waits for the slice running now to end. */
  close(): Promise<void>;
}

type Slice = (input: EventJobInput) => Promise<{ done: boolean }>;

/**
 * The background workflows on one machine: the definitions CDK deploys, run by
 * aws-local-stepfunctions with each job's task mapped to the function its Lambda runs. Nothing is
 * journaled here: each job records its own progress in the table, and the runtime's start-up
 * starts again what a killed process left unfinished.
 */
export function createLocalBackgroundJobs(options: {
  slices: Record<BackgroundJob, Slice>;
  logger: Logger;
}): LocalBackgroundJobs {
  const machines = Object.fromEntries(
    backgroundJobs.map((job) => [job, localStateMachine(buildJobDefinition(job, localFunctionArn(job)))]),
  ) as Record<BackgroundJob, ReturnType<typeof localStateMachine>>;
  const running = new Map<string, { abort(): void; settled: Promise<unknown> }>();
  const slicesRunning = new Set<Promise<unknown>>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const sliceOf = (job: BackgroundJob) => (input: EventJobInput) => {
    // A workflow stopped by close() ends at its next slice rather than starting it on a closing table.
    if (closed) return Promise.reject(new Error("The runtime is closing"));
    const work = options.slices[job](input);
    slicesRunning.add(work);
    return work.finally(() => slicesRunning.delete(work));
  };

  return {
    async start(job, input) {
      const name = jobExecutionName(job, input);
      if (closed || running.has(name)) return;
      const execution = machines[job].run(input as never, {
        overrides: { taskResourceLocalHandlers: { Slice: sliceOf(job) as never } },
      });
      const settled = execution.result.then(
        () => options.logger.debug("background job finished", { job, eventId: input.eventId }),
        (error: unknown) => {
          if (!closed) options.logger.error("background job failed", { job, eventId: input.eventId, error });
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
