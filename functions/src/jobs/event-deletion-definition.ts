import { throttleRetry } from "../pipeline/definition";

/** What starts an event's deletion workflow. */
export interface EventDeletionInput {
  eventId: number;
  /** Which start of it this is: a stalled deletion started again runs under a new execution name. */
  attempt: number;
}

/**
 * How long one slice of a deletion works before it records where it got to and hands back to the
 * workflow. On AWS well inside its Lambda's timeout (infra: twice as long); locally short, so that a
 * deletion's progress moves visibly and the runtime stops between slices quickly.
 */
export const deletionSliceMs = { lambda: 60_000, local: 2_000 } as const;

/** Execution names are unique per state machine for 90 days: one per deletion and attempt. */
export const eventDeletionExecutionName = ({ eventId, attempt }: EventDeletionInput) =>
  `event-${eventId}-attempt-${attempt}`;

/**
 * The deletion of an event as Amazon States Language, deployed by CDK with the slice function's ARN
 * and run by the local runtime with aws-local-stepfunctions. One task removes what it can in one
 * time slice and records where it got to (app/event-deletion.ts), then the loop calls it again: a
 * 100,000-photo event takes many slices, none near a Lambda's timeout, and a slice that dies is
 * retried from what was recorded.
 */
export function buildEventDeletionDefinition(sliceResource: string) {
  return {
    Comment: "Dorsal event deletion: one execution per deleted event, a time slice of work per task",
    StartAt: "DeleteSlice",
    States: {
      DeleteSlice: {
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
        Choices: [{ Variable: "$.slice.done", BooleanEquals: true, Next: "Deleted" }],
        Default: "DeleteSlice",
      },
      Deleted: { Type: "Succeed" },
    },
  };
}
