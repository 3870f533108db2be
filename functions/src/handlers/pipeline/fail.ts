import { getContainer } from "../../compose";

/** Step Functions task "fail": the Lambda entry around the same function the local runner calls. */
export const handler = async (
  input: Parameters<Awaited<ReturnType<typeof getContainer>>["pipelineTasks"]["fail"]>[0],
) => (await getContainer()).pipelineTasks.fail(input);
