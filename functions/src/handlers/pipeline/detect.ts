import type { PipelineTasks } from "../../app/pipeline";
import { getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/** Step Functions task "detect": the Lambda entry around the same function the local runner calls. */
export const handler = lambdaEntry("pipeline task detect", async (input: Parameters<PipelineTasks["detect"]>[0]) =>
  (await getContainer()).pipelineTasks.detect(input),
);
