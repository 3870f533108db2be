import type { PipelineTasks } from "../../app/pipeline";
import { getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/** Step Functions task "fail": the Lambda entry around the same function the local runner calls. */
export const handler = lambdaEntry("pipeline task fail", async (input: Parameters<PipelineTasks["fail"]>[0]) =>
  (await getContainer()).pipelineTasks.fail(input),
);
