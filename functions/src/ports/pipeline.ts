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
