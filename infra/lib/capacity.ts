import { Duration } from "aws-cdk-lib";
import { downloadZipPrefix, zipUploadPrefix } from "../../functions/src/app/storage-paths";
import { rekognitionDefaultTps } from "../../functions/src/pipeline/definition";

/**
 * The numbers of the capacity model, in one place. docs/capacity.md derives each of them (section
 * names in the comments); change a number there and here together.
 *
 * Quotas are AWS defaults, which vary by region and account: check the account's Service Quotas
 * before a big event, and raise these numbers only after raising the quotas they rest on.
 */
export const capacity = {
  /**
   * Rekognition's default TPS quota for DetectText and for DetectFaces, each (§ Quotas). Not a
   * setting: the figure the concurrency below is derived from.
   */
  rekognitionTps: rekognitionDefaultTps,

  /**
   * Reserved concurrency of the detect task (§ Detect, § The arithmetic): every invocation makes one
   * DetectText and one DetectFaces call, side by side, and holds its slot ~L + 0.17 s (L a call's
   * latency; its own work at 512 MB), so 25 slots make at most 25 / (L + 0.17 s) calls a second of
   * each operation: within the 50 TPS quota for L ≥ 0.33 s. Faster calls may overrun it briefly;
   * the SDK's retries and Step Functions' throttle retries absorb that (npm run capacity:sim: 0
   * photos failed at 0.3 s). Step Functions retries the invokes Lambda refuses.
   */
  detectReservedConcurrency: 25,

  /**
   * Reserved concurrency of the variants task (§ Variants): 60 × (1–3 s per photo) = 20–60
   * photos/s, ahead of detect, bounded so a burst cannot take the account's whole pool.
   */
  variantsReservedConcurrency: 60,

  /** The starter: SQS → StartExecution (§ Queue and starter). */
  starter: {
    timeout: Duration.seconds(30),
    /** Messages per invocation; one S3 notification each, one StartExecution each. */
    batchSize: 10,
    /** At a trickle, wait this long to fill a batch; in a burst batches are full at once. */
    maxBatchingWindow: Duration.seconds(1),
    /** Concurrent starter invocations the event source runs: ≈ 20–100 executions started per second. */
    maxConcurrency: 5,
  },

  /** Receives of one notification before it goes to the dead-letter queue (§ Queue and starter). */
  maxReceiveCount: 5,
  /** How long the dead-letter queue keeps a notification for a redrive (the SQS maximum). */
  deadLetterRetention: Duration.days(14),

  /** S3 lifecycle of the originals bucket (§ Storage). */
  lifecycle: {
    /** Uploaded ZIPs, once unpacked into originals, are only a copy. */
    zipPrefix: zipUploadPrefix,
    zipExpiration: Duration.days(3),
    /** ZIPs built for a download link or code: a copy of originals, fetched once right after it is made. */
    downloadZipPrefix,
    downloadZipExpiration: Duration.days(1),
    /** Scratch objects of the pipeline. */
    tmpPrefix: "tmp/",
    tmpExpiration: Duration.days(1),
    /** Multipart uploads a browser started and never completed. */
    abortIncompleteMultipartAfter: Duration.days(1),
  },
} as const;

/**
 * AWS's guidance for an SQS queue feeding Lambda: a visibility timeout of at least six times the
 * function's timeout, plus its maximum batching window (§ Queue and starter). 6 × 30 + 1 = 181 s.
 */
export function queueVisibilityTimeout(functionTimeout: Duration, maxBatchingWindow: Duration): Duration {
  return Duration.seconds(functionTimeout.toSeconds() * 6 + maxBatchingWindow.toSeconds());
}

/** Reserved concurrency Dorsal takes out of the account's pool (§ Lambda concurrency). */
export const reservedConcurrencyTotal = capacity.detectReservedConcurrency + capacity.variantsReservedConcurrency;
