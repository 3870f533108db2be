/**
 * The queue model behind docs/capacity.md (§ Per-photo work, § The arithmetic for a burst of 5000):
 * a deterministic discrete-event simulation of N originals landing in S3 and going through
 *
 *   S3 notification → SQS → starter (batches, maxConcurrency) → one Step Functions execution each:
 *   Prepare (no cap) → Variants (reserved C_v) → Detect (reserved C_d, Rekognition's token buckets)
 *   → Record (no cap) → searchable
 *
 * as the pipeline runs on AWS, where Rekognition reads the working copy Variants makes, so the
 * steps run one after the other (functions/src/pipeline/definition.ts, the `Variants` → `Detect`
 * path). Time is simulated, never read from the clock; every random draw comes from one seeded
 * generator, in event order, so a seed gives the same result every time.
 *
 * What is modelled, and how:
 * - Lambda refuses an invoke when all reserved slots of a function are busy
 *   (`Lambda.TooManyRequestsException`); Step Functions retries it with `throttleRetry` (its
 *   IntervalSeconds, BackoffRate, MaxDelaySeconds, FULL jitter: a wait drawn between 0 and the
 *   attempt's delay) and, once its MaxAttempts retries are spent, the photo goes to `fail`.
 * - Rekognition: one token bucket per operation (DetectText, DetectFaces), refilled at the TPS
 *   quota, `rekognitionBurst` tokens deep (AWS publishes no burst: 1 s of quota by default). A call
 *   that finds no token is throttled; the SDK retries it itself (standard mode as installed,
 *   @smithy/core util-retry: 3 attempts, waits drawn between 0 and 1 s × 2ⁿ) while the function
 *   keeps its slot; a call throttled 3 times fails the invocation with `ThrottlingException`, which
 *   the same `throttleRetry` retries (same attempt counter as Lambda's refusals: one retrier) by
 *   running detect again, both calls included.
 * - The two calls of one photo go out at once (`Promise.all` in the Rekognition adapter's
 *   `readPhoto`, functions/src/adapters/aws/rekognition.ts), or one after the other
 *   (`rekognitionCalls: "sequential"`, what infra/lib/capacity.ts's comment assumes).
 * - Cold starts: each function keeps the instances it started (warm for the whole run); a new one
 *   pays its init time, billed like the rest (Lambda bills INIT since August 2025).
 * - The starter: SQS messages are taken in batches of `batchSize` as soon as a batch is full, or
 *   once the oldest message waited `maxBatchingWindow`; at most `maxConcurrency` invocations at
 *   once; one StartExecution after the other inside an invocation.
 *
 * Not modelled (reported instead, or far from any limit): the account's unreserved Lambda pool
 * (prepare, record and the starter use a few dozen of its 915 slots: peak concurrency is reported),
 * StartExecution's and state transitions' token buckets (peak rates are reported against 300/s and
 * 5000/s), the SDK's retry-token budget, the generic retrier (States.TaskFailed: no task fails
 * here other than by throttling), S3 and DynamoDB throttling.
 */
import {
  throttleRetry as definitionThrottleRetry,
  rekognitionDefaultTps,
} from "../../functions/src/pipeline/definition";
import { capacity } from "../lib/capacity";

/** Lambda gives a function 1 vCPU at 1769 MB, proportionally less below and more above (up to 6 at 10,240 MB). */
export const lambdaMbPerVcpu = 1769;

/** Seconds of Lambda time for work measured as `cpuSeconds` of one core here, at `memoryMb` (see the module's note). */
export function lambdaSeconds(cpuSeconds: number, memoryMb: number): number {
  return cpuSeconds / (memoryMb / lambdaMbPerVcpu);
}

export type PipelineStage = "prepare" | "variants" | "detect" | "record";
export type LambdaName = PipelineStage | "starter";

export interface RetryPolicy {
  IntervalSeconds: number;
  MaxAttempts: number;
  BackoffRate: number;
  MaxDelaySeconds: number;
  JitterStrategy: "FULL" | "NONE";
}

export interface ModelParams {
  photos: number;
  /** Uploads land uniformly at random over [0, windowS); 0: all at t = 0. */
  windowS: number;
  seed: number;
  /** Every service time below is drawn uniformly within ± this fraction of its value (0: exact). */
  jitter: number;

  /** S3 → SQS: the event notification's own delay. */
  notifyS: number;
  starter: {
    batchSize: number;
    maxBatchingWindowS: number;
    maxConcurrency: number;
    /** One StartExecution call, from the starter. */
    startExecutionS: number;
    /** The starter's own time per invocation besides its calls. */
    overheadS: number;
  };
  /** Step Functions' own time between one task ending and the next invoke (also the refused invoke's round trip). */
  transitionS: number;

  /** Duration of each step's invocation (warm), Rekognition's calls excluded. */
  prepareS: number;
  variantsS: number;
  /** detect's own part: reading the working copy from S3 and its CPU at its memory. */
  detectOwnS: number;
  recordS: number;
  coldStartS: Record<LambdaName, number>;
  memoryMb: Record<LambdaName, number>;

  variantsConcurrency: number;
  detectConcurrency: number;

  /** One Rekognition call (DetectText or DetectFaces), image upload included: AWS publishes no figure. */
  rekognitionLatencyS: number;
  rekognitionCalls: "parallel" | "sequential";
  /** Per operation: DetectText and DetectFaces each have their own quota. */
  rekognitionTps: number;
  /** Tokens a bucket holds when full. */
  rekognitionBurst: number;

  throttleRetry: RetryPolicy;
  /** The AWS SDK's own retries of a throttled call (standard mode): attempts in all, wait base and cap. */
  sdkRetry: { maxAttempts: number; throttlingBaseS: number; maxDelayS: number };
}

/**
 * Measured on this machine (2 cores), 2026-11-27: CPU-seconds of one core per photo, all threads,
 * converted to Lambda by `lambdaSeconds`. Other work on the machine moved them by up to a third
 * between runs (and absolute figures vary 2–3× from day to day): read them as an order of magnitude.
 */
export const measured = {
  /**
   * variants on a 22.6 MP camera-like JPEG (hvv's 5822 × 3881 with grain, quality 95, ~7 MB, its
   * sRGB ICC profile embedded), working copy included: 0.88–1.16 in six runs
   * (`npm run capacity:sim -- --measure`), the two quietest 0.88 and 0.90. Measured before variants
   * skipped converting an sRGB profile to sRGB (0.52 since): kept as the case of a profile that does
   * need converting (Display P3, Adobe RGB), the conservative one.
   */
  variantsCpuS: 0.9,
  /** detect's own CPU sending the ≤ 3000 px working copy (`npm run bench:detect`, `copy`: 34–39 CPU-ms in two runs). */
  detectCpuS: 0.034,
};

/** Assumed, not measurable here: in-region S3 and DynamoDB round trips, Lambda's init, Step Functions' step. */
export const assumed = {
  /** variants: GET the original (8–15 MB at ~100 MB/s) and PUT 6 copies side by side. */
  variantsIoS: 0.25,
  /** detect: GET the working copy (~1–2 MB). */
  detectIoS: 0.05,
  prepareS: 0.2,
  /** DynamoDB writes, then deleting the working copy. */
  recordS: 0.2,
  notifyS: 0.5,
  startExecutionS: 0.05,
  starterOverheadS: 0.02,
  transitionS: 0.05,
  coldStartS: { starter: 0.5, prepare: 0.5, variants: 0.8, detect: 0.6, record: 0.5 } as Record<LambdaName, number>,
};

/**
 * Memory of the pipeline's functions as infra/lib/stateless-stack.ts sets them (not exported
 * there; detect at 512 MB since dde1540): for detect's own time and the GB-s figure.
 */
export const deployedMemoryMb: Record<LambdaName, number> = {
  starter: 512,
  prepare: 512,
  variants: 2048,
  detect: 512,
  record: 512,
};

/** The model with today's settings (infra/lib/capacity.ts, the definition's retrier), measured and assumed times. */
export function defaultParams(
  overrides: Partial<Omit<ModelParams, "memoryMb">> & { memoryMb?: Partial<Record<LambdaName, number>> } = {},
): ModelParams {
  const memoryMb = { ...deployedMemoryMb, ...overrides.memoryMb };
  return {
    photos: 5000,
    windowS: 600,
    seed: 1,
    jitter: 0.25,
    notifyS: assumed.notifyS,
    starter: {
      batchSize: capacity.starter.batchSize,
      maxBatchingWindowS: capacity.starter.maxBatchingWindow.toSeconds(),
      maxConcurrency: capacity.starter.maxConcurrency,
      startExecutionS: assumed.startExecutionS,
      overheadS: assumed.starterOverheadS,
    },
    transitionS: assumed.transitionS,
    prepareS: assumed.prepareS,
    variantsS: lambdaSeconds(measured.variantsCpuS, memoryMb.variants) + assumed.variantsIoS,
    detectOwnS: lambdaSeconds(measured.detectCpuS, memoryMb.detect) + assumed.detectIoS,
    recordS: assumed.recordS,
    coldStartS: { ...assumed.coldStartS },
    variantsConcurrency: capacity.variantsReservedConcurrency,
    detectConcurrency: capacity.detectReservedConcurrency,
    rekognitionLatencyS: 0.5,
    rekognitionCalls: "parallel",
    rekognitionTps: rekognitionDefaultTps,
    rekognitionBurst: rekognitionDefaultTps,
    throttleRetry: { ...definitionThrottleRetry },
    sdkRetry: { maxAttempts: 3, throttlingBaseS: 1, maxDelayS: 20 },
    ...overrides,
    memoryMb,
  };
}

export interface SimResult {
  photos: number;
  searchable: number;
  failed: number;
  /** "<stage>: <error>" → photos. */
  failures: Record<string, number>;
  /** From the first upload landing (t = 0) to the last photo searchable (or failed, if later). */
  lastDoneS: number;
  /** From the last upload landing to the last photo done. */
  afterLastUploadS: number;
  /** Upload → searchable, searchable photos only. */
  latencyS: { p50: number; p95: number; max: number };
  /** Most executions at once waiting for a stage: SQS messages not yet taken (starter), executions in a retry's wait. */
  peakWaiting: { starter: number; variants: number; detect: number };
  peakRunning: Record<LambdaName, number>;
  coldStarts: Record<LambdaName, number>;
  lambdaRefusals: { variants: number; detect: number };
  rekognition: {
    /** Calls answered (and billed), both operations. */
    calls: number;
    /** Calls refused for the quota, SDK retries included. */
    throttled: number;
    /** detect invocations that failed with ThrottlingException after the SDK's retries. */
    invocationsFailed: number;
  };
  /** Detect completions per second: the best 10 s window, and the mean from the first to the last. */
  detectPhotosPerS: { peak10s: number; mean: number };
  /** Step Functions retries (each one a billed state transition). */
  retries: number;
  /** Billed state transitions: 5 states entered per clean execution, plus each retry. */
  stateTransitions: number;
  peakStateTransitionsPerS: number;
  peakStartExecutionsPerS: number;
  gbSecondsPerPhoto: { total: number } & Record<LambdaName, number>;
}

/** sfc32 seeded through splitmix32: small, fast and the same on every platform. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
}

/** The wait before retry number `n` (1-based) of a Step Functions retrier. */
export function retryDelayS(policy: RetryPolicy, n: number, random: () => number): number {
  const delay = Math.min(policy.IntervalSeconds * policy.BackoffRate ** (n - 1), policy.MaxDelaySeconds);
  return policy.JitterStrategy === "FULL" ? random() * delay : delay;
}

interface Event {
  t: number;
  seq: number;
  run: () => void;
}

/** A binary min-heap of events by time, then by scheduling order (ties stay deterministic). */
class Agenda {
  private readonly heap: Event[] = [];
  private seq = 0;
  now = 0;

  at(t: number, run: () => void) {
    const event = { t, seq: this.seq++, run };
    const heap = this.heap;
    heap.push(event);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(event, heap[parent] as Event)) break;
      heap[i] = heap[parent] as Event;
      i = parent;
    }
    heap[i] = event;
  }

  run() {
    const heap = this.heap;
    while (heap.length > 0) {
      const top = heap[0] as Event;
      const last = heap.pop() as Event;
      if (heap.length > 0) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= heap.length) break;
          const right = left + 1;
          const child = right < heap.length && before(heap[right] as Event, heap[left] as Event) ? right : left;
          if (!before(heap[child] as Event, last)) break;
          heap[i] = heap[child] as Event;
          i = child;
        }
        heap[i] = last;
      }
      this.now = top.t;
      top.run();
    }
  }
}

function before(a: Event, b: Event) {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq);
}

class TokenBucket {
  private tokens: number;
  private last = 0;
  constructor(
    private readonly rate: number,
    private readonly size: number,
  ) {
    this.tokens = size;
  }
  take(t: number): boolean {
    this.tokens = Math.min(this.size, this.tokens + (t - this.last) * this.rate);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** A count over time, keeping its peak. */
class Gauge {
  value = 0;
  peak = 0;
  add(delta: number) {
    this.value += delta;
    if (this.value > this.peak) this.peak = this.value;
  }
}

/** The most timestamps in any window of `windowS` (times sorted). */
function peakInWindow(times: number[], windowS: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] as number) - (times[start] as number) >= windowS) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

interface Photo {
  id: number;
  landedAt: number;
  /** Retries spent by the throttle retrier in the current state. */
  retries: number;
  doneAt?: number;
  failure?: string;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function simulate(params: ModelParams): SimResult {
  const random = seededRandom(params.seed);
  const vary = (value: number) => (params.jitter === 0 ? value : value * (1 + params.jitter * (2 * random() - 1)));
  const agenda = new Agenda();
  const names: LambdaName[] = ["starter", "prepare", "variants", "detect", "record"];
  const perFunction = <T>(value: (name: LambdaName) => T) =>
    Object.fromEntries(names.map((name) => [name, value(name)])) as Record<LambdaName, T>;
  const running = perFunction(() => new Gauge());
  const instances = perFunction(() => 0);
  const coldStarts = perFunction(() => 0);
  const gbSeconds = perFunction(() => 0);
  const waiting = { starter: new Gauge(), variants: new Gauge(), detect: new Gauge() };
  const refusals = { variants: 0, detect: 0 };
  const reservedFor: Partial<Record<LambdaName, number>> = {
    variants: params.variantsConcurrency,
    detect: params.detectConcurrency,
  };
  const rekognition = { calls: 0, throttled: 0, invocationsFailed: 0 };
  const buckets = {
    text: new TokenBucket(params.rekognitionTps, params.rekognitionBurst),
    faces: new TokenBucket(params.rekognitionTps, params.rekognitionBurst),
  };
  const failures: Record<string, number> = {};
  const detectDone: number[] = [];
  const transitions: number[] = [];
  const starts: number[] = [];
  let retries = 0;

  /**
   * An invocation of `name` starting now, if a slot is free: the init time when no instance is
   * idle, then `work`, which calls `end` once, when the invocation returns (billed until then).
   * Returns false when Lambda refuses it.
   */
  const invoke = (name: LambdaName, work: (startedAt: number, end: () => void) => void): boolean => {
    const cap = reservedFor[name];
    if (cap !== undefined && running[name].value >= cap) return false;
    const idle = instances[name] - running[name].value;
    let startedAt = agenda.now;
    if (idle <= 0) {
      instances[name]++;
      coldStarts[name]++;
      startedAt += vary(params.coldStartS[name]);
    }
    running[name].add(1);
    const invokedAt = agenda.now;
    let ended = false;
    work(startedAt, () => {
      if (ended) return;
      ended = true;
      running[name].add(-1);
      gbSeconds[name] += ((agenda.now - invokedAt) * params.memoryMb[name]) / 1024;
    });
    return true;
  };

  const transition = (at: number) => transitions.push(at);

  const fail = (photo: Photo, reason: string) => {
    photo.failure = reason;
    photo.doneAt = agenda.now;
    failures[reason] = (failures[reason] ?? 0) + 1;
  };

  /** A task state: invoke, and on a throttle (refused, or the function's ThrottlingException) wait and retry. */
  const task = (
    photo: Photo,
    stage: PipelineStage,
    body: (startedAt: number, end: (error?: string) => void) => void,
    next: () => void,
  ) => {
    const attempt = () => {
      const accepted = invoke(stage, (startedAt, end) =>
        body(startedAt, (error) => {
          end();
          if (error) retryOrFail(error);
          else next();
        }),
      );
      if (!accepted) {
        if (stage === "variants" || stage === "detect") refusals[stage]++;
        retryOrFail("Lambda.TooManyRequestsException");
      }
    };
    const retryOrFail = (error: string) => {
      if (photo.retries >= params.throttleRetry.MaxAttempts) {
        fail(photo, `${stage}: ${error}`);
        return;
      }
      photo.retries++;
      retries++;
      const gauge = stage === "variants" || stage === "detect" ? waiting[stage] : undefined;
      gauge?.add(1);
      const wakeAt = agenda.now + params.transitionS + retryDelayS(params.throttleRetry, photo.retries, random);
      agenda.at(wakeAt, () => {
        gauge?.add(-1);
        transition(agenda.now);
        attempt();
      });
    };
    photo.retries = 0;
    agenda.at(agenda.now + params.transitionS, () => {
      transition(agenda.now);
      attempt();
    });
  };

  /** One Rekognition call with the SDK's retries: `done(true)` answered, `done(false)` throttled to the end. */
  const call = (bucket: TokenBucket, done: (ok: boolean) => void, sdkAttempt = 0) => {
    if (bucket.take(agenda.now)) {
      rekognition.calls++;
      agenda.at(agenda.now + vary(params.rekognitionLatencyS), () => done(true));
      return;
    }
    rekognition.throttled++;
    if (sdkAttempt + 1 >= params.sdkRetry.maxAttempts) {
      done(false);
      return;
    }
    const wait = random() * Math.min(params.sdkRetry.throttlingBaseS * 2 ** sdkAttempt, params.sdkRetry.maxDelayS);
    agenda.at(agenda.now + wait, () => call(bucket, done, sdkAttempt + 1));
  };

  const detectBody = (startedAt: number, end: (error?: string) => void) => {
    agenda.at(startedAt + vary(params.detectOwnS), () => {
      const throttled = () => {
        rekognition.invocationsFailed++;
        end("ThrottlingException");
      };
      if (params.rekognitionCalls === "sequential") {
        call(buckets.text, (ok) => (ok ? call(buckets.faces, (ok2) => (ok2 ? end() : throttled())) : throttled()));
        return;
      }
      let answered = 0;
      let failed = false;
      const done = (ok: boolean) => {
        if (failed) return;
        if (!ok) {
          failed = true;
          throttled();
        } else if (++answered === 2) end();
      };
      call(buckets.text, done);
      call(buckets.faces, done);
    });
  };

  const fixed = (seconds: number) => (startedAt: number, end: (error?: string) => void) =>
    agenda.at(startedAt + vary(seconds), () => end());

  const execute = (photo: Photo) => {
    starts.push(agenda.now);
    task(photo, "prepare", fixed(params.prepareS), () => {
      transition(agenda.now); // Route
      task(photo, "variants", fixed(params.variantsS), () =>
        task(photo, "detect", detectBody, () => {
          detectDone.push(agenda.now);
          task(photo, "record", fixed(params.recordS), () => {
            photo.doneAt = agenda.now;
          });
        }),
      );
    });
  };

  // The starter: SQS in front of an event source mapping.
  const queue: { photo: Photo; at: number }[] = [];
  let windowCheckAt = -1;
  const poll = () => {
    const { batchSize, maxBatchingWindowS, maxConcurrency } = params.starter;
    while (queue.length > 0 && running.starter.value < maxConcurrency) {
      const oldest = (queue[0] as { at: number }).at;
      if (queue.length < batchSize && agenda.now < oldest + maxBatchingWindowS) {
        if (windowCheckAt !== oldest + maxBatchingWindowS) {
          windowCheckAt = oldest + maxBatchingWindowS;
          agenda.at(windowCheckAt, poll);
        }
        return;
      }
      const batch = queue.splice(0, batchSize);
      waiting.starter.add(-batch.length);
      invoke("starter", (startedAt, end) => {
        let t = startedAt + vary(params.starter.overheadS);
        for (const { photo } of batch) {
          t += vary(params.starter.startExecutionS);
          agenda.at(t, () => execute(photo));
        }
        agenda.at(t, () => {
          end();
          poll();
        });
      });
    }
  };

  const photos: Photo[] = [];
  for (let id = 0; id < params.photos; id++) {
    const landedAt = params.windowS > 0 ? random() * params.windowS : 0;
    photos.push({ id, landedAt, retries: 0 });
  }
  photos.sort((a, b) => a.landedAt - b.landedAt || a.id - b.id);
  for (const photo of photos) {
    agenda.at(photo.landedAt + vary(params.notifyS), () => {
      queue.push({ photo, at: agenda.now });
      waiting.starter.add(1);
      poll();
    });
  }
  agenda.run();

  const searchable = photos.filter((photo) => photo.doneAt !== undefined && photo.failure === undefined);
  const latencies = searchable.map((photo) => (photo.doneAt as number) - photo.landedAt).sort((a, b) => a - b);
  const lastDone = Math.max(0, ...photos.map((photo) => photo.doneAt ?? 0));
  const lastLanded = Math.max(0, ...photos.map((photo) => photo.landedAt));
  const failed = photos.length - searchable.length;
  detectDone.sort((a, b) => a - b);
  transitions.sort((a, b) => a - b);
  starts.sort((a, b) => a - b);
  const detectSpan = detectDone.length > 1 ? (detectDone.at(-1) as number) - (detectDone[0] as number) : 0;
  const perPhoto = (value: number) => (params.photos > 0 ? value / params.photos : 0);
  const gbTotal = names.reduce((sum, name) => sum + gbSeconds[name], 0);
  return {
    photos: params.photos,
    searchable: searchable.length,
    failed,
    failures,
    lastDoneS: round(lastDone, 1),
    afterLastUploadS: round(lastDone - lastLanded, 1),
    latencyS: {
      p50: round(percentile(latencies, 50), 1),
      p95: round(percentile(latencies, 95), 1),
      max: round(latencies.at(-1) ?? 0, 1),
    },
    peakWaiting: { starter: waiting.starter.peak, variants: waiting.variants.peak, detect: waiting.detect.peak },
    peakRunning: perFunction((name) => running[name].peak),
    coldStarts,
    lambdaRefusals: refusals,
    rekognition,
    detectPhotosPerS: {
      peak10s: round(peakInWindow(detectDone, 10) / 10, 1),
      mean: round(detectSpan > 0 ? (detectDone.length - 1) / detectSpan : 0, 1),
    },
    retries,
    stateTransitions: transitions.length,
    peakStateTransitionsPerS: peakInWindow(transitions, 1),
    peakStartExecutionsPerS: peakInWindow(starts, 1),
    gbSecondsPerPhoto: {
      total: round(perPhoto(gbTotal), 3),
      ...perFunction((name) => round(perPhoto(gbSeconds[name]), 3)),
    },
  };
}
