import { InvokeCommand, type LambdaClient } from "@aws-sdk/client-lambda";
import type { PreflightLauncher } from "../../ports/preflight";
import type { PreflightInvocation } from "../../preflight/definition";

/**
 * Starts a run in the preflight function, asynchronously: a run takes minutes, API Gateway waits
 * 30 s. Lambda answers 202 once it has queued the invocation.
 */
export function createLambdaPreflightLauncher(lambda: LambdaClient, functionName: string): PreflightLauncher {
  return {
    async launch(runId: string) {
      const payload: PreflightInvocation = { runId };
      const answer = await lambda.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: "Event",
          Payload: new TextEncoder().encode(JSON.stringify(payload)),
        }),
      );
      if (answer.StatusCode !== 202)
        throw new Error(`Lambda answered ${answer.StatusCode} to the preflight invocation`);
    },
  };
}
