import type { SQSClient } from "@aws-sdk/client-sqs";
import type { PipelineQueue } from "../../ports/pipeline";

/**
 * On AWS what waits to start is the S3 notifications in the starter's queue; once started, an
 * execution waits inside Step Functions (throttle retries), which no cheap call counts, so
 * `running` and the oldest photo's time are left unknown rather than guessed.
 */
export function createSqsPipelineQueue(client: () => Promise<SQSClient>, queueUrl: string): PipelineQueue {
  return {
    async state() {
      const { GetQueueAttributesCommand } = await import("@aws-sdk/client-sqs");
      const answer = await (await client()).send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }),
      );
      return {
        waiting: Number(answer.Attributes?.ApproximateNumberOfMessages ?? 0),
        running: null,
        oldestWaitingSince: null,
      };
    },
  };
}
