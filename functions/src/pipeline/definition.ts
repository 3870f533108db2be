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

/**
 * What the `fail` task logs for each photo it records as failed: its execution still succeeds, so
 * AWS counts failed photos from this line (infra/lib/alarms.ts, a metric filter).
 */
export const photoFailedLogMessage = "photo failed";

/**
 * Rekognition's default TPS quota for DetectText and for DetectFaces, each (docs/capacity.md §
 * Quotas): the detect task's reserved concurrency is derived from it (infra/lib/capacity.ts), and
 * the preflight warns when the account's quota is lower.
 */
export const rekognitionDefaultTps = 50;

/** Where a step's failure waits in the state while the other branch of `VariantsBesideDetect` finishes. */
const errorPath = "$.error";

export function buildPipelineDefinition(resourceFor: (task: PipelineTask) => string) {
  const retrying = (name: PipelineTask, resultPath: string) => ({
    Type: "Task",
    Resource: resourceFor(name),
    ResultPath: resultPath,
    Retry: [{ ErrorEquals: [permanentErrorName], MaxAttempts: 0 }, ...retry],
  });
  const task = (name: PipelineTask, next: string | undefined, resultPath: string) => ({
    ...retrying(name, resultPath),
    Catch: [{ ErrorEquals: ["States.ALL"], ResultPath: errorPath, Next: "Fail" }],
    ...(next ? { Next: next } : { End: true }),
  });
  /**
   * A branch that always ends well: a step's final error is kept in the state instead, so the
   * Parallel state waits for the other branch before `Fail` runs. A failed branch ending the
   * Parallel at once would let the other step (a Lambda Step Functions does not stop) write its
   * objects after `fail` cleaned up.
   */
  const branch = (stateName: string, name: PipelineTask, resultPath: string) => ({
    StartAt: stateName,
    States: {
      [stateName]: {
        ...retrying(name, resultPath),
        Catch: [{ ErrorEquals: ["States.ALL"], ResultPath: errorPath, Next: `${stateName}Failed` }],
        End: true,
      },
      [`${stateName}Failed`]: { Type: "Pass", End: true },
    },
  });
  return {
    Comment: "Dorsal photo pipeline: one execution per uploaded original",
    StartAt: "Prepare",
    States: {
      Prepare: task("prepare", "Route", "$.photo"),
      Route: {
        Type: "Choice",
        Choices: [
          // A copy of a photo the event already has ends here, successfully: no variants, no detection.
          { Variable: "$.photo.duplicate", BooleanEquals: true, Next: "Duplicate" },
          // Detect reads the working copy variants makes (HEIC, Rekognition), so it waits for it.
          { Variable: "$.photo.detectFromWorkingCopy", BooleanEquals: true, Next: "Variants" },
        ],
        Default: "VariantsBesideDetect",
      },
      Duplicate: { Type: "Succeed" },
      Variants: task("variants", "Detect", "$.variants"),
      Detect: task("detect", "Record", "$.detection"),
      // Every other photo is read while its copies are made: on an idle machine both cores work on it.
      VariantsBesideDetect: {
        Type: "Parallel",
        Branches: [branch("MakeVariants", "variants", "$.variants"), branch("ReadPhoto", "detect", "$.detection")],
        // Each branch returns the whole state with its own result (or error) added: merged back into
        // one, variants' side last so its error is the one kept when both fail (an unreadable photo).
        ResultSelector: { "state.$": "States.JsonMerge($[1], $[0], false)" },
        // With no ResultPath the selected result is the output ("$"), of which the merged state is kept.
        OutputPath: "$.state",
        Catch: [{ ErrorEquals: ["States.ALL"], ResultPath: errorPath, Next: "Fail" }],
        Next: "Joined",
      },
      Joined: {
        Type: "Choice",
        Choices: [{ Variable: errorPath, IsPresent: true, Next: "Fail" }],
        Default: "Record",
      },
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

interface StateShape {
  Resource?: string;
  Retry?: { ErrorEquals: string[] }[];
  Branches?: { States: Record<string, StateShape> }[];
}

/** Every Task state of the definition, branches included, with the step it runs. */
export function taskStates(
  definition: ReturnType<typeof buildPipelineDefinition>,
  taskOf: (resource: string) => PipelineTask | undefined,
) {
  const found: { stateName: string; task: PipelineTask; state: StateShape }[] = [];
  const visit = (states: Record<string, StateShape>) => {
    for (const [stateName, state] of Object.entries(states)) {
      const task = state.Resource === undefined ? undefined : taskOf(state.Resource);
      if (task) found.push({ stateName, task, state });
      for (const inner of state.Branches ?? []) visit(inner.States);
    }
  };
  visit(definition.States as Record<string, StateShape>);
  return found;
}
