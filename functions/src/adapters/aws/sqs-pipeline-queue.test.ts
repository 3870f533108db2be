import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { createSqsPipelineQueue } from "./sqs-pipeline-queue";

const queueUrl = "https://sqs.us-east-1.amazonaws.com/123456789012/DorsalStateless-PipelineUploads-AbC";
const now = new Date("2026-12-06T09:30:00Z");

/** Clients that answer what the test says and note what they were asked. */
function clients(waiting: number, oldestAgeSeconds?: number) {
  const asked: { client: string; input: unknown }[] = [];
  const client = (name: string, answer: () => unknown) =>
    (async () => ({
      send: async (command: { input: unknown }) => {
        asked.push({ client: name, input: command.input });
        return answer();
      },
    })) as never;
  return {
    asked,
    sqs: client("sqs", () => ({
      Attributes: { ApproximateNumberOfMessages: String(waiting) },
    })) as () => Promise<SQSClient>,
    cloudWatch: client("cloudWatch", () => ({
      MetricDataResults: [{ Id: "age", Values: oldestAgeSeconds === undefined ? [] : [oldestAgeSeconds] }],
    })) as () => Promise<CloudWatchClient>,
  };
}

describe("the start queue on AWS, as the dashboard reads it", () => {
  it("counts the notifications waiting, and dates the oldest from its queue's age metric", async () => {
    const fake = clients(42, 90);

    const state = await createSqsPipelineQueue(fake, queueUrl, () => now).state();

    expect(state).toEqual({ waiting: 42, running: null, oldestWaitingSince: new Date("2026-12-06T09:28:30Z") });
    expect(JSON.stringify(fake.asked[1]?.input)).toContain('"Value":"DorsalStateless-PipelineUploads-AbC"');
  });

  it("asks no age of an empty queue, and says nothing when the metric has no figure yet", async () => {
    const empty = clients(0, 300);
    const young = clients(3);

    expect(await createSqsPipelineQueue(empty, queueUrl, () => now).state()).toMatchObject({
      oldestWaitingSince: null,
    });
    expect(empty.asked.map((call) => call.client)).toEqual(["sqs"]);
    expect(await createSqsPipelineQueue(young, queueUrl, () => now).state()).toMatchObject({
      waiting: 3,
      oldestWaitingSince: null,
    });
  });
});
