import { throttleRetry } from "../pipeline/definition";

/**
 * Work on one event that outlasts a request or a Lambda: an event's deletion, the recount of its
 * counters (a 100,000-photo event's recount reads every photo and every bib's links), and selfie
 * search's description of the photos an event had when the search was switched on.
 */
export const backgroundJobs = ["eventDeletion", "counterRecount", "faceIndexing"] as const;
export type BackgroundJob = (typeof backgroundJobs)[number];

/** What starts a job's workflow. */
export interface EventJobInput {
  eventId: number;
  /**
   * Tells one run of the job on the event from another: a deletion's attempt (a stalled one
   * started again runs under a new execution name), a recount's `changes` as the schedule read them.
   */
  attempt: number;
}

/**
 * How long one slice of a job works before it records where it got to and hands back to the
 * workflow. On AWS well inside its Lambda's timeout (infra: twice as long); locally short, so that
 * progress moves visibly and the runtime stops between slices quickly.
 */
export const jobSliceMs = { lambda: 60_000, local: 2_000 } as const;

const executionPrefixes: Record<BackgroundJob, string> = {
  eventDeletion: "delete",
  counterRecount: "recount",
  faceIndexing: "faces",
};

/** Execution names are unique per state machine for 90 days: one per job, event and attempt. */
export const jobExecutionName = (job: BackgroundJob, { eventId, attempt }: EventJobInput) =>
  `${executionPrefixes[job]}-event-${eventId}-${attempt}`;

/**
 * A job as Amazon States Language, deployed by CDK with its slice function's ARN and run by the
 * local runtime with aws-local-stepfunctions. One task does what it can in one time slice and
 * records where it got to (a deletion's step and counts, a recount's checkpoint), then the loop
 * calls it again: a 100,000-photo event takes many slices, none near a Lambda's timeout, and a
 * slice that dies is retried from what was recorded.
 */
export function buildJobDefinition(job: BackgroundJob, sliceResource: string) {
  return {
    Comment: `Dorsal ${job}: one execution per event and attempt, a time slice of work per task`,
    StartAt: "Slice",
    States: {
      Slice: {
        Type: "Task",
        Resource: sliceResource,
        // The input (eventId, attempt) stays the state; the slice's answer sits beside it.
        ResultPath: "$.slice",
        Retry: [
          throttleRetry,
          { ErrorEquals: ["States.ALL"], IntervalSeconds: 5, MaxAttempts: 6, BackoffRate: 2, JitterStrategy: "FULL" },
        ],
        Next: "Finished",
      },
      Finished: {
        Type: "Choice",
        Choices: [{ Variable: "$.slice.done", BooleanEquals: true, Next: "Done" }],
        Default: "Slice",
      },
      Done: { Type: "Succeed" },
    },
  };
}
