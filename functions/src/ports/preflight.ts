/** Starts a recorded preflight run where it can take minutes: a Lambda invoked asynchronously, or the runtime's background. */
export interface PreflightLauncher {
  launch(runId: string): Promise<void>;
}

/** What the platform lets a race use, as the preflight's quota check weighs it. */
export type PlatformQuotas =
  | {
      platform: "aws";
      /** The account's Lambda concurrency in the region, and what no function reserves. */
      lambda: { limit: number; unreserved: number };
      /** Rekognition's transactions per second per operation; null when Service Quotas does not list it. */
      rekognitionTps: { detectText: number | null; detectFaces: number | null };
    }
  | { platform: "local"; pipelineConcurrency: number; ocrWorkers: number };

export interface QuotaReader {
  read(): Promise<PlatformQuotas>;
}
