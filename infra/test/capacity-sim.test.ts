import { describe, expect, it } from "vitest";
import { rekognitionDefaultTps, throttleRetry } from "../../functions/src/pipeline/definition";
import { capacity } from "../lib/capacity";
import {
  defaultParams,
  lambdaSeconds,
  type ModelParams,
  retryDelayS,
  seededRandom,
  simulate,
} from "../scripts/capacity-model";

/** Exact service times: the bounds below hold to the millisecond. */
const exact = (overrides: Parameters<typeof defaultParams>[0] = {}) => defaultParams({ jitter: 0, ...overrides });

/** Rekognition calls one after the other in one detect invocation. */
const callsInSeries = (params: ModelParams) => (params.rekognitionCalls === "sequential" ? 2 : 1);

describe("the capacity model (docs/capacity.md)", () => {
  it("starts from the deployed numbers, not copies of them", () => {
    const params = defaultParams();

    expect(params.detectConcurrency).toBe(capacity.detectReservedConcurrency);
    expect(params.variantsConcurrency).toBe(capacity.variantsReservedConcurrency);
    expect(params.rekognitionTps).toBe(rekognitionDefaultTps);
    expect(params.starter).toMatchObject({
      batchSize: capacity.starter.batchSize,
      maxConcurrency: capacity.starter.maxConcurrency,
      maxBatchingWindowS: capacity.starter.maxBatchingWindow.toSeconds(),
    });
    expect(params.throttleRetry).toEqual(throttleRetry);
    // 1 vCPU at 1769 MB: a CPU-second here is a second at 1769 MB, two at half of it.
    expect(lambdaSeconds(1, 1769)).toBeCloseTo(1);
    expect(lambdaSeconds(0.03, 512)).toBeCloseTo(0.1037, 3);
  });

  it("waits what the definition's retrier waits: FULL jitter under the doubling delay, capped at MaxDelaySeconds", () => {
    const random = seededRandom(7);
    for (let n = 1; n <= throttleRetry.MaxAttempts; n++) {
      const cap = Math.min(throttleRetry.IntervalSeconds * throttleRetry.BackoffRate ** (n - 1), 30);
      const waits = Array.from({ length: 200 }, () => retryDelayS(throttleRetry, n, random));
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...waits)).toBeLessThanOrEqual(cap);
      // Spread over the whole interval, not bunched at its end.
      expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(cap * 0.8);
    }
  });

  it.each(["parallel", "sequential"] as const)(
    "takes one photo through in the sum of its stages (Rekognition's calls %s)",
    (rekognitionCalls) => {
      const params = exact({ photos: 1, windowS: 0, rekognitionCalls, rekognitionLatencyS: 0.6 });
      const { starter, coldStartS: cold } = params;

      const result = simulate(params);

      const sum =
        params.notifyS +
        // One message never fills a batch: the event source waits its window.
        starter.maxBatchingWindowS +
        cold.starter +
        starter.overheadS +
        starter.startExecutionS +
        4 * params.transitionS +
        cold.prepare +
        params.prepareS +
        cold.variants +
        params.variantsS +
        cold.detect +
        params.detectOwnS +
        callsInSeries(params) * params.rekognitionLatencyS +
        cold.record +
        params.recordS;
      expect(result).toMatchObject({ searchable: 1, failed: 0, retries: 0 });
      expect(result.latencyS.max).toBeCloseTo(sum, 1);
      expect(result.lastDoneS).toBeCloseTo(sum, 1);
      expect(result.rekognition).toEqual({ calls: 2, throttled: 0, invocationsFailed: 0 });
      expect(result.stateTransitions).toBe(5);
    },
  );

  it("meets Rekognition's throttling once detect can call faster than the quota, and only then", () => {
    // One after the other, each detect makes a call of each operation every 2L + its own time.
    const over = exact({ photos: 1000, windowS: 0, rekognitionCalls: "sequential", rekognitionLatencyS: 0.25 });
    const perSecond = (params: ModelParams) =>
      params.detectConcurrency / (2 * params.rekognitionLatencyS + params.detectOwnS);
    const fast = { ...over, detectConcurrency: 50 };
    const slow = { ...over, detectConcurrency: 15 };
    expect(perSecond(fast)).toBeGreaterThan(fast.rekognitionTps);
    expect(perSecond(slow)).toBeLessThan(slow.rekognitionTps);

    expect(simulate(fast).rekognition.throttled).toBeGreaterThan(0);
    expect(simulate(slow).rekognition.throttled).toBe(0);
    // Side by side (the adapter's Promise.all) the same 25 slots call twice as often: over the
    // quota at 0.3 s once their own time is short and variants feed detect fast enough.
    const parallel = exact({
      photos: 1000,
      windowS: 0,
      rekognitionLatencyS: 0.3,
      detectOwnS: 0.05,
      variantsS: 0.2,
      variantsConcurrency: 200,
    });
    expect(parallel.detectConcurrency / (parallel.rekognitionLatencyS + parallel.detectOwnS)).toBeGreaterThan(50);
    expect(simulate(parallel).rekognition.throttled).toBeGreaterThan(0);
  });

  it("fails photos whose throttle retries run out, and says where and why", () => {
    const burst = exact({ photos: 500, windowS: 0 });

    const patient = simulate(burst);
    const impatient = simulate({ ...burst, throttleRetry: { ...burst.throttleRetry, MaxAttempts: 1 } });
    const lowQuota = simulate({
      ...burst,
      rekognitionTps: 2,
      rekognitionBurst: 2,
      throttleRetry: { ...burst.throttleRetry, MaxAttempts: 2 },
    });

    expect(patient.failed).toBe(0);
    expect(impatient.failed).toBeGreaterThan(0);
    expect(impatient.searchable + impatient.failed).toBe(500);
    expect(Object.keys(impatient.failures)).toContain("variants: Lambda.TooManyRequestsException");
    expect(Object.values(impatient.failures).reduce((sum, count) => sum + count, 0)).toBe(impatient.failed);
    expect(lowQuota.failures["detect: ThrottlingException"]).toBeGreaterThan(0);
  });

  it.each([
    { rekognitionCalls: "sequential", detectConcurrency: 25, rekognitionLatencyS: 0.3 },
    { rekognitionCalls: "sequential", detectConcurrency: 60, rekognitionLatencyS: 0.3 },
    { rekognitionCalls: "parallel", detectConcurrency: 25, rekognitionLatencyS: 1 },
    { rekognitionCalls: "parallel", detectConcurrency: 60, rekognitionLatencyS: 0.2 },
    { rekognitionCalls: "parallel", detectConcurrency: 10, rekognitionLatencyS: 0.5, rekognitionTps: 5 },
  ] as const)("never detects faster than min(TPS, C_d / (calls in series × L)): %o", (overrides) => {
    const params = exact({ photos: 1000, windowS: 0, ...overrides });
    const windowS = 10;

    const { detectPhotosPerS, searchable } = simulate(params);

    const byQuota = params.rekognitionBurst + params.rekognitionTps * windowS;
    const byConcurrency =
      params.detectConcurrency * (windowS / (callsInSeries(params) * params.rekognitionLatencyS) + 1);
    expect(detectPhotosPerS.peak10s * windowS).toBeLessThanOrEqual(Math.min(byQuota, byConcurrency) + 0.5);
    expect(detectPhotosPerS.mean).toBeLessThanOrEqual(
      Math.min(params.rekognitionTps, params.detectConcurrency / (callsInSeries(params) * params.rekognitionLatencyS)),
    );
    expect(searchable).toBeGreaterThan(0);
  });

  it("gives the same answer for a seed, and another for another seed", () => {
    const params = defaultParams({ photos: 500, windowS: 30 });

    const once = simulate(params);

    expect(simulate(params)).toEqual(once);
    expect(simulate({ ...params, seed: 2 })).not.toEqual(once);
  });
});
