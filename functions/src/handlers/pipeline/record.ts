import { getContainer } from "../../compose";

/** Step Functions task "record": the Lambda entry around the same function the local runner calls. */
export const handler = async (
  input: Parameters<Awaited<ReturnType<typeof getContainer>>["pipelineTasks"]["record"]>[0],
) => (await getContainer()).pipelineTasks.record(input);
