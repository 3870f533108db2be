import { getContainer } from "../../compose";

/** Step Functions task "prepare": the Lambda entry around the same function the local runner calls. */
export const handler = async (
  input: Parameters<Awaited<ReturnType<typeof getContainer>>["pipelineTasks"]["prepare"]>[0],
) => (await getContainer()).pipelineTasks.prepare(input);
