/**
 * The photo pipeline as Amazon States Language. CDK deploys it with Lambda ARNs; the local runtime
 * runs the very same definition with aws-local-stepfunctions, mapping each Task state to the same
 * handler function. One execution per uploaded original keeps a 5000-photo ZIP from becoming one
 * giant execution.
 */
export const pipelineTasks = ["prepare", "variants", "detect", "record", "fail"] as const;
export type PipelineTask = (typeof pipelineTasks)[number];

/**
 * Throttling is back-pressure, not failure (docs/capacity.md): Lambda refuses an invoke once a
 * task's reserved concurrency is in use, and Rekognition's TPS quota surfaces as the detect task's
 * error (after the SDK's own retries). A 5000-photo burst keeps executions waiting for detect for
 * minutes, so throttles get many jittered attempts (expected ≈ 6 min of waiting in all, at most
 * ≈ 13 min) before the generic retrier; it must come first, since the first matching retrier wins.
 */
export const throttleRetry = {
  ErrorEquals: ["Lambda.TooManyRequestsException", "ThrottlingException", "ProvisionedThroughputExceededException"],
  IntervalSeconds: 1,
  MaxAttempts: 30,
  BackoffRate: 2,
  MaxDelaySeconds: 30,
  JitterStrategy: "FULL" as const,
};

const retry = [
  throttleRetry,
  {
    ErrorEquals: ["States.TaskFailed", "Lambda.ServiceException"],
    IntervalSeconds: 2,
    MaxAttempts: 3,
    BackoffRate: 2,
  },
];

/** Errors that no retry can fix (bad file, unknown event): go straight to `fail`. */
export const permanentErrorName = "PermanentError";

export function buildPipelineDefinition(resourceFor: (task: PipelineTask) => string) {
  const task = (name: PipelineTask, next: string | undefined, resultPath: string | null) => ({
    Type: "Task",
    Resource: resourceFor(name),
    ResultPath: resultPath,
    Retry: [{ ErrorEquals: [permanentErrorName], MaxAttempts: 0 }, ...retry],
    Catch: [{ ErrorEquals: ["States.ALL"], ResultPath: "$.error", Next: "Fail" }],
    ...(next ? { Next: next } : { End: true }),
  });
  return {
    Comment: "Dorsal photo pipeline: one execution per uploaded original",
    StartAt: "Prepare",
    States: {
      Prepare: task("prepare", "IsDuplicate", "$.photo"),
      // A copy of a photo the event already has ends here, successfully: no variants, no detection.
      IsDuplicate: {
        Type: "Choice",
        Choices: [{ Variable: "$.photo.duplicate", BooleanEquals: true, Next: "Duplicate" }],
        Default: "Variants",
      },
      Duplicate: { Type: "Succeed" },
      Variants: task("variants", "Detect", "$.variants"),
      Detect: task("detect", "Record", "$.detection"),
      Record: task("record", undefined, "$.result"),
      Fail: {
        Type: "Task",
        Resource: resourceFor("fail"),
        ResultPath: "$.result",
        Retry: retry,
        End: true,
      },
    },
  };
}
