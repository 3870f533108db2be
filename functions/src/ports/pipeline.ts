/** What starts one pipeline execution: one uploaded original. */
export interface PipelineInput {
  bucket: string;
  key: string;
  size: number;
  /** Distinguishes two uploads to the same key (S3 sequencer / ETag) so redelivery is idempotent. */
  version: string;
}

export interface PipelineStarter {
  start(input: PipelineInput): Promise<{ executionId: string; alreadyStarted: boolean }>;
}

/** What waits in the pipeline now, as far as the platform says (null where it does not). */
export interface PipelineQueueState {
  /** Accepted and not yet running. */
  waiting: number | null;
  running: number | null;
  oldestWaitingSince: Date | null;
}

export interface PipelineQueue {
  state(): Promise<PipelineQueueState>;
}
