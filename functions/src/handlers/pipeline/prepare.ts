import type { PipelineTasks } from "../../app/pipeline";
import { getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/** Step Functions task "prepare": the Lambda entry around the same function the local runner calls. */
export const handler = lambdaEntry("pipeline task prepare", async (input: Parameters<PipelineTasks["prepare"]>[0]) =>
  (await getContainer()).pipelineTasks.prepare(input),
);
