import type { MeasuredStage } from "@dorsal/shared";

/**
 * Measurements the performance dashboard reads back (issue 21 item 2): written where the work
 * happens, read by the admin's function. On AWS, CloudWatch metrics written as embedded metric
 * format log lines and read with GetMetricData; locally, the runtime's own memory.
 */
export type MetricName =
  /** A photo's time in one stage (dimension `stage`). */
  | "StageMs"
  /** Resident memory and V8 heap of the process after heavy work. */
  | "RssBytes"
  | "HeapUsedBytes"
  /** The signed image URL cache: counts since the last flush, and its size then. */
  | "UrlCacheHits"
  | "UrlCacheMisses"
  | "UrlCacheEvictions"
  | "UrlCacheEntries"
  | "UrlCacheBytes";

export interface MetricQuery {
  name: MetricName;
  stage?: MeasuredStage;
  since: Date;
  until: Date;
}

export interface MetricSummary {
  /** Values recorded in the window. */
  count: number;
  sum: number;
  max: number | null;
  p50: number | null;
  p95: number | null;
}

export interface Metrics {
  put(name: MetricName, value: number, options?: { stage?: MeasuredStage; at?: Date }): void;
  summary(query: MetricQuery): Promise<MetricSummary>;
  /** The maximum of each `periodSeconds` slice of the window that has values, oldest first. */
  maxima(query: MetricQuery & { periodSeconds: number }): Promise<{ at: Date; value: number }[]>;
}
