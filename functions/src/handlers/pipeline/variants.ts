import { getContainer } from "../../compose";

/** Step Functions task "variants": the Lambda entry around the same function the local runner calls. */
export const handler = async (
  input: Parameters<Awaited<ReturnType<typeof getContainer>>["pipelineTasks"]["variants"]>[0],
) => (await getContainer()).pipelineTasks.variants(input);
