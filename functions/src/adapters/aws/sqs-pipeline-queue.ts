import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { PipelineQueue } from "../../ports/pipeline";

/**
 * On AWS what waits to start is the S3 notifications in the starter's queue: their count from SQS,
 * the oldest one's age from the queue's CloudWatch metric (SQS has no attribute for it). Once
 * started, an execution waits inside Step Functions (throttle retries), which no cheap call counts,
 * so `running` is left unknown rather than guessed.
 */
export function createSqsPipelineQueue(
  clients: { sqs: () => Promise<SQSClient>; cloudWatch: () => Promise<CloudWatchClient> },
  queueUrl: string,
  now: () => Date,
): PipelineQueue {
  const queueName = queueUrl.split("/").pop() ?? "";
  return {
    async state() {
      const { GetQueueAttributesCommand } = await import("@aws-sdk/client-sqs");
      const answer = await (await clients.sqs()).send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }),
      );
      const waiting = Number(answer.Attributes?.ApproximateNumberOfMessages ?? 0);
      return { waiting, running: null, oldestWaitingSince: waiting > 0 ? await oldestSince() : null };
    },
  };

  /** SQS reports the age each minute: the latest of the last five minutes. */
  async function oldestSince(): Promise<Date | null> {
    const { GetMetricDataCommand } = await import("@aws-sdk/client-cloudwatch");
    const until = now();
    const answer = await (await clients.cloudWatch()).send(
      new GetMetricDataCommand({
        StartTime: new Date(until.getTime() - 5 * 60_000),
        EndTime: until,
        ScanBy: "TimestampDescending",
        MetricDataQueries: [
          {
            Id: "age",
            MetricStat: {
              Metric: {
                Namespace: "AWS/SQS",
                MetricName: "ApproximateAgeOfOldestMessage",
                Dimensions: [{ Name: "QueueName", Value: queueName }],
              },
              Period: 60,
              Stat: "Maximum",
            },
          },
        ],
      }),
    );
    const ageSeconds = answer.MetricDataResults?.[0]?.Values?.[0];
    return ageSeconds === undefined ? null : new Date(until.getTime() - ageSeconds * 1000);
  }
}
