import { createHash } from "node:crypto";
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from "@aws-sdk/client-sfn";
import type { PipelineInput, PipelineStarter } from "../../ports/pipeline";

/** Execution names are unique per state machine for 90 days: naming by upload makes redelivery a no-op. */
export function executionNameFor(input: PipelineInput): string {
  return createHash("sha256").update(`${input.bucket}/${input.key}#${input.version}`).digest("hex").slice(0, 64);
}

export function createSfnPipelineStarter(client: SFNClient, stateMachineArn: string): PipelineStarter {
  return {
    async start(input) {
      const name = executionNameFor(input);
      try {
        await client.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
        return { executionId: name, alreadyStarted: false };
      } catch (error) {
        if (error instanceof ExecutionAlreadyExists || (error as { name?: string }).name === "ExecutionAlreadyExists") {
          return { executionId: name, alreadyStarted: true };
        }
        throw error;
      }
    },
  };
}
