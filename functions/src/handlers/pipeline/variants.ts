import type { PipelineTasks } from "../../app/pipeline";
import { getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/** Step Functions task "variants": the Lambda entry around the same function the local runner calls. */
export const handler = lambdaEntry("pipeline task variants", async (input: Parameters<PipelineTasks["variants"]>[0]) =>
  (await getContainer()).pipelineTasks.variants(input),
);
