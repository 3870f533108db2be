import { getContainer } from "../../compose";

/** Step Functions task "detect": the Lambda entry around the same function the local runner calls. */
export const handler = async (
  input: Parameters<Awaited<ReturnType<typeof getContainer>>["pipelineTasks"]["detect"]>[0],
) => (await getContainer()).pipelineTasks.detect(input);
