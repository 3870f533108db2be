import type { MetricName, MetricQuery, MetricSummary, Metrics } from "../../ports/metrics";

/** What a process keeps: an hour of the dashboard's window and then some, at most this many values a metric. */
const keptMs = 2 * 3600_000;
const maxValuesPerMetric = 50_000;

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? null;
}

/**
 * The Metrics port in the process's memory: the local runtime (one process does all the work,
 * so its memory sees every measurement) and use-case tests. Forgotten on restart.
 */
export function createMemoryMetrics(clock: { now(): Date }): Metrics {
  const series = new Map<string, { at: number; value: number }[]>();
  const keyOf = (name: MetricName, stage?: string) => (stage ? `${name}/${stage}` : name);
  const inWindow = ({ name, stage, since, until }: MetricQuery) =>
    (series.get(keyOf(name, stage)) ?? []).filter(
      (point) => point.at >= since.getTime() && point.at <= until.getTime(),
    );
  return {
    put(name, value, options = {}) {
      const key = keyOf(name, options.stage);
      const points = series.get(key) ?? [];
      const at = (options.at ?? clock.now()).getTime();
      points.push({ at, value });
      const oldest = at - keptMs;
      while (points.length > maxValuesPerMetric || (points[0] && points[0].at < oldest)) points.shift();
      series.set(key, points);
    },
    async summary(query): Promise<MetricSummary> {
      const values = inWindow(query)
        .map((point) => point.value)
        .sort((a, b) => a - b);
      return {
        count: values.length,
        sum: values.reduce((total, value) => total + value, 0),
        max: values.at(-1) ?? null,
        p50: percentile(values, 0.5),
        p95: percentile(values, 0.95),
      };
    },
    async maxima(query) {
      const periodMs = query.periodSeconds * 1000;
      const slices = new Map<number, number>();
      for (const { at, value } of inWindow(query)) {
        const slice = Math.floor((at - query.since.getTime()) / periodMs);
        slices.set(slice, Math.max(slices.get(slice) ?? Number.NEGATIVE_INFINITY, value));
      }
      return [...slices.entries()]
        .sort(([a], [b]) => a - b)
        .map(([slice, value]) => ({ at: new Date(query.since.getTime() + slice * periodMs), value }));
    },
  };
}
