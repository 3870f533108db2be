import { createHash } from "node:crypto";
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from "@aws-sdk/client-sfn";
import { type BackgroundJob, jobExecutionName } from "../../jobs/definitions";
import type { BackgroundJobs } from "../../ports/background-jobs";
import type { PipelineInput, PipelineStarter } from "../../ports/pipeline";

/** Execution names are unique per state machine for 90 days: naming by upload makes redelivery a no-op. */
export function executionNameFor(input: PipelineInput): string {
  return createHash("sha256").update(`${input.bucket}/${input.key}#${input.version}`).digest("hex").slice(0, 64);
}

/** Starts a named execution; false when one of that name already ran or runs (a repeated start). */
async function startNamed(client: SFNClient, stateMachineArn: string, name: string, input: object): Promise<boolean> {
  try {
    await client.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
    return true;
  } catch (error) {
    if (error instanceof ExecutionAlreadyExists || (error as { name?: string }).name === "ExecutionAlreadyExists") {
      return false;
    }
    throw error;
  }
}

export function createSfnPipelineStarter(client: SFNClient, stateMachineArn: string): PipelineStarter {
  return {
    async start(input) {
      const name = executionNameFor(input);
      const started = await startNamed(client, stateMachineArn, name, input);
      return { executionId: name, alreadyStarted: !started };
    },
  };
}

/** Each job's state machine, as far as the function was given them (only the functions that start a job are). */
export function createSfnBackgroundJobs(
  client: () => Promise<SFNClient>,
  stateMachineArns: Partial<Record<BackgroundJob, string>>,
): BackgroundJobs {
  return {
    async start(job, input) {
      const arn = stateMachineArns[job];
      if (!arn) throw new Error(`No state machine of ${job} is configured for this function`);
      await startNamed(await client(), arn, jobExecutionName(job, input), input);
    },
  };
}
