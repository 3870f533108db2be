import type { CloudWatchClient, MetricDataQuery } from "@aws-sdk/client-cloudwatch";
import type { MetricName, MetricQuery, MetricSummary, Metrics } from "../../ports/metrics";

const units: Record<MetricName, string> = {
  StageMs: "Milliseconds",
  RssBytes: "Bytes",
  HeapUsedBytes: "Bytes",
  UrlCacheHits: "Count",
  UrlCacheMisses: "Count",
  UrlCacheEvictions: "Count",
  UrlCacheEntries: "Count",
  UrlCacheBytes: "Bytes",
};

/**
 * The Metrics port on AWS: each value is one embedded-metric-format line on stdout, which Lambda
 * sends to CloudWatch Logs and CloudWatch turns into a metric (no API call, nothing to wait for on
 * the photo's path); the dashboard reads them back with GetMetricData, percentiles included.
 */
export function createCloudWatchMetrics(
  /** Loaded on the first read: writing needs no SDK, so the functions that only write stay small. */
  client: () => Promise<CloudWatchClient>,
  namespace: string,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Metrics {
  const dimensionsOf = (stage?: string) => (stage ? [{ Name: "Stage", Value: stage }] : []);
  const query = async (input: MetricQuery, periodSeconds: number, stats: string[]) => {
    const queries: MetricDataQuery[] = stats.map((stat, index) => ({
      Id: `m${index}`,
      MetricStat: {
        Metric: { Namespace: namespace, MetricName: input.name, Dimensions: dimensionsOf(input.stage) },
        Period: periodSeconds,
        Stat: stat,
      },
    }));
    const { GetMetricDataCommand } = await import("@aws-sdk/client-cloudwatch");
    const answer = await (await client()).send(
      new GetMetricDataCommand({
        MetricDataQueries: queries,
        StartTime: input.since,
        EndTime: input.until,
        ScanBy: "TimestampAscending",
      }),
    );
    return stats.map((_, index) => answer.MetricDataResults?.find((result) => result.Id === `m${index}`));
  };
  return {
    put(name, value, options = {}) {
      write(
        JSON.stringify({
          _aws: {
            Timestamp: (options.at ?? new Date()).getTime(),
            CloudWatchMetrics: [
              {
                Namespace: namespace,
                Dimensions: [options.stage ? ["Stage"] : []],
                Metrics: [{ Name: name, Unit: units[name] }],
              },
            ],
          },
          ...(options.stage ? { Stage: options.stage } : {}),
          [name]: value,
        }),
      );
    },
    async summary(input): Promise<MetricSummary> {
      // One period covering the whole window, rounded up to whole minutes as CloudWatch requires.
      const period = Math.max(60, Math.ceil((input.until.getTime() - input.since.getTime()) / 60_000) * 60);
      const [count, sum, max, p50, p95] = await query(input, period, ["SampleCount", "Sum", "Maximum", "p50", "p95"]);
      const last = (result: typeof count) => result?.Values?.at(-1) ?? null;
      return {
        count: (count?.Values ?? []).reduce((total, value) => total + value, 0),
        sum: (sum?.Values ?? []).reduce((total, value) => total + value, 0),
        max: (max?.Values ?? []).length > 0 ? Math.max(...(max?.Values ?? [])) : null,
        p50: last(p50),
        p95: last(p95),
      };
    },
    async maxima(input) {
      const [max] = await query(input, input.periodSeconds, ["Maximum"]);
      const times = max?.Timestamps ?? [];
      return (max?.Values ?? []).map((value, index) => ({ at: times[index] ?? input.since, value }));
    },
  };
}
