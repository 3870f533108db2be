import { mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../../logger";
import { buildPipelineDefinition, type PipelineTask, pipelineTasks, taskStates } from "../../pipeline/definition";
import type { PipelineInput, PipelineStarter } from "../../ports/pipeline";
import { executionNameFor } from "../aws/sfn-starters";
import { localFunctionArn, localStateMachine } from "./state-machine";

type TaskFunction = (input: never) => Promise<unknown>;

export interface LocalPipelineStats {
  queued: number;
  /** When the execution first in line was accepted (ms), if one waits and its time is known. */
  oldestQueuedAt: number | null;
  running: number;
  succeeded: number;
  failed: number;
}

export interface LocalPipeline extends PipelineStarter {
  /**
   * Re-enqueues what was queued or running when the process last stopped (killed or not), in the
   * order it arrived, without running it yet: returns the inputs that came back, so the caller can
   * repair what the kill left half-written before `resume`.
   */
  restore(): Promise<PipelineInput[]>;
  /** Starts running the queue (a `start` does too). */
  resume(): void;
  /** Whether an execution for this original is queued or running (the start-up sweep skips it). */
  holds(key: string): boolean;
  stats(): LocalPipelineStats;
  /** Resolves when nothing is queued or running (tests and benchmarks wait on it). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface QueuedExecution {
  name: string;
  input: PipelineInput;
  /** Arrival order, kept across restarts. */
  seq: number;
  /** When it was accepted (ms); absent in what an older version journaled. */
  queuedAt?: number;
}

/**
 * Where accepted executions wait, one small JSON file each under `dir`: written (atomically, by
 * rename) before `start` returns, deleted only once the execution has finished. Whatever a killed
 * process leaves there was queued or running, and runs again on the next start — safe, because
 * every step is idempotent.
 */
function createExecutionJournal(dir: string | undefined) {
  const file = (name: string) => path.join(dir ?? "", `${name}.json`);
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir ?? "", { recursive: true });
    return ready;
  };
  return {
    async save(execution: QueuedExecution): Promise<void> {
      if (!dir) return;
      await ensureDir();
      const tmp = `${file(execution.name)}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(execution));
      await rename(tmp, file(execution.name));
    },
    async remove(name: string): Promise<void> {
      if (!dir) return;
      await unlink(file(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    },
    async load(logger: Logger): Promise<QueuedExecution[]> {
      if (!dir) return [];
      await ensureDir();
      const found: QueuedExecution[] = [];
      for (const entry of await readdir(dir)) {
        const full = path.join(dir, entry);
        // A write the kill interrupted never became an accepted execution (start had not returned).
        if (entry.endsWith(".tmp")) {
          await unlink(full).catch(() => undefined);
          continue;
        }
        if (!entry.endsWith(".json")) continue;
        try {
          const execution = JSON.parse(await readFile(full, "utf8")) as QueuedExecution;
          if (typeof execution.name === "string" && typeof execution.input?.key === "string") found.push(execution);
        } catch (error) {
          logger.warn("ignoring an unreadable queued pipeline execution", { file: full, error });
        }
      }
      return found.sort((a, b) => a.seq - b.seq);
    },
  };
}

/**
 * Step Functions on one machine: the same ASL definition CDK deploys, run by
 * aws-local-stepfunctions with each Task state mapped to the same task function the Lambda runs.
 * A bounded in-process queue plays SQS's part, so a burst of uploads never runs all at once; with
 * `stateDir` it is durable like SQS, so killing the process loses no accepted upload.
 */
export function createLocalPipeline(options: {
  tasks: Record<PipelineTask, TaskFunction>;
  concurrency: number;
  logger: Logger;
  /** Directory that keeps queued and running executions across restarts; memory only without it. */
  stateDir?: string;
}): LocalPipeline {
  const definition = buildPipelineDefinition(localFunctionArn);
  const machine = localStateMachine(definition);
  const handlers: Record<string, (input: never) => Promise<never>> = {};
  const taskOf = (resource: string) => pipelineTasks.find((task) => localFunctionArn(task) === resource);
  for (const { stateName, task } of taskStates(definition, taskOf)) {
    handlers[stateName] = options.tasks[task] as (input: never) => Promise<never>;
  }

  const journal = createExecutionJournal(options.stateDir);
  const started = new Set<string>();
  const queue: QueuedExecution[] = [];
  const running = new Map<string, QueuedExecution>();
  let seq = Date.now() * 1000;
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
      running.set(next.name, next);
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
        .then(() => journal.remove(next.name))
        .catch((error: unknown) =>
          options.logger.error("could not clear a finished pipeline execution", { name: next.name, error }),
        )
        .finally(() => {
          counts.running--;
          running.delete(next.name);
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
      const execution = { name, input, seq: seq++, queuedAt: Date.now() };
      try {
        // Durable before it is acknowledged, as SQS would be.
        await journal.save(execution);
      } catch (error) {
        started.delete(name);
        throw error;
      }
      queue.push(execution);
      pump();
      return { executionId: name, alreadyStarted: false };
    },
    async restore() {
      const restored = (await journal.load(options.logger)).filter((execution) => !started.has(execution.name));
      for (const execution of restored) {
        started.add(execution.name);
        seq = Math.max(seq, execution.seq + 1);
        queue.push({ ...execution, queuedAt: execution.queuedAt ?? Date.now() });
      }
      if (restored.length > 0) options.logger.info("pipeline executions restored", { count: restored.length });
      return restored.map((execution) => execution.input);
    },
    resume: pump,
    holds: (key) =>
      queue.some((execution) => execution.input.key === key) ||
      [...running.values()].some((execution) => execution.input.key === key),
    stats: () => ({ queued: queue.length, oldestQueuedAt: queue[0]?.queuedAt ?? null, ...counts }),
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
