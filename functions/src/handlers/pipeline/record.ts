import type { PipelineTasks } from "../../app/pipeline";
import { getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/** Step Functions task "record": the Lambda entry around the same function the local runner calls. */
export const handler = lambdaEntry("pipeline task record", async (input: Parameters<PipelineTasks["record"]>[0]) =>
  (await getContainer()).pipelineTasks.record(input),
);
