import { StateMachine } from "aws-local-stepfunctions";
import type { Logger } from "../../logger";
import { buildPipelineDefinition, type PipelineTask, pipelineTasks } from "../../pipeline/definition";
import type { PipelineInput, PipelineStarter } from "../../ports/pipeline";
import { executionNameFor } from "../aws/sfn-pipeline-starter";

// aws-local-stepfunctions 3 calls Promise.withResolvers, which Node 20 lacks.
if (!("withResolvers" in Promise)) {
  Object.defineProperty(Promise, "withResolvers", {
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

type TaskFunction = (input: never) => Promise<unknown>;

export interface LocalPipelineStats {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
}

export interface LocalPipeline extends PipelineStarter {
  stats(): LocalPipelineStats;
  /** Resolves when nothing is queued or running (tests and benchmarks wait on it). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const localArn = (task: PipelineTask) => `arn:aws:lambda:us-east-1:000000000000:function:dorsal-${task}`;

/**
 * Step Functions on one machine: the same ASL definition CDK deploys, run by
 * aws-local-stepfunctions with each Task state mapped to the same task function the Lambda runs.
 * A bounded in-process queue plays SQS's part, so a burst of uploads never runs all at once.
 */
export function createLocalPipeline(options: {
  tasks: Record<PipelineTask, TaskFunction>;
  concurrency: number;
  logger: Logger;
}): LocalPipeline {
  const definition = buildPipelineDefinition(localArn);
  const machine = new StateMachine(definition as ConstructorParameters<typeof StateMachine>[0]);
  const handlers: Record<string, (input: never) => Promise<never>> = {};
  for (const [stateName, state] of Object.entries(definition.States)) {
    const task = pipelineTasks.find((t) => localArn(t) === state.Resource);
    if (task) handlers[stateName] = options.tasks[task] as (input: never) => Promise<never>;
  }

  const started = new Set<string>();
  const queue: { name: string; input: PipelineInput }[] = [];
  const counts = { running: 0, succeeded: 0, failed: 0 };
  let idleWaiters: (() => void)[] = [];
  let closed = false;

  const settleIdle = () => {
    if (queue.length === 0 && counts.running === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  const pump = () => {
    while (!closed && counts.running < options.concurrency && queue.length > 0) {
      const next = queue.shift();
      if (!next) break;
      counts.running++;
      const execution = machine.run(next.input as never, {
        overrides: { taskResourceLocalHandlers: handlers as never },
      });
      execution.result
        .then((output) => {
          counts.succeeded++;
          options.logger.debug("pipeline execution succeeded", { name: next.name, output });
        })
        .catch((error: unknown) => {
          counts.failed++;
          options.logger.error("pipeline execution failed", { name: next.name, key: next.input.key, error });
        })
        .finally(() => {
          counts.running--;
          pump();
          settleIdle();
        });
    }
  };

  return {
    async start(input) {
      const name = executionNameFor(input);
      // Like Step Functions' execution names: the same upload never runs twice.
      if (started.has(name)) return { executionId: name, alreadyStarted: true };
      started.add(name);
      queue.push({ name, input });
      pump();
      return { executionId: name, alreadyStarted: false };
    },
    stats: () => ({ queued: queue.length, ...counts }),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    async close() {
      closed = true;
      queue.length = 0;
      while (counts.running > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      settleIdle();
    },
  };
}
