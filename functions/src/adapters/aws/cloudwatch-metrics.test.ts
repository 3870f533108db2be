import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { describe, expect, it } from "vitest";
import { createCloudWatchMetrics } from "./cloudwatch-metrics";

const noClient = async (): Promise<CloudWatchClient> => {
  throw new Error("writing needs no client");
};

describe("CloudWatch metrics in embedded metric format", () => {
  it("writes one EMF line a value, with the stage as its dimension, which CloudWatch turns into a metric", () => {
    const lines: string[] = [];
    const metrics = createCloudWatchMetrics(noClient, "Dorsal/Prod", (line) => lines.push(line));

    metrics.put("StageMs", 812, { stage: "detect", at: new Date("2026-12-06T09:00:00Z") });
    metrics.put("RssBytes", 123_456_789, { at: new Date("2026-12-06T09:00:01Z") });

    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        _aws: {
          Timestamp: Date.parse("2026-12-06T09:00:00Z"),
          CloudWatchMetrics: [
            { Namespace: "Dorsal/Prod", Dimensions: [["Stage"]], Metrics: [{ Name: "StageMs", Unit: "Milliseconds" }] },
          ],
        },
        Stage: "detect",
        StageMs: 812,
      },
      {
        _aws: {
          Timestamp: Date.parse("2026-12-06T09:00:01Z"),
          CloudWatchMetrics: [
            { Namespace: "Dorsal/Prod", Dimensions: [[]], Metrics: [{ Name: "RssBytes", Unit: "Bytes" }] },
          ],
        },
        RssBytes: 123_456_789,
      },
    ]);
  });
});
