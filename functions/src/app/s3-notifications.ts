import type { S3Event } from "aws-lambda";

export interface CreatedObject {
  key: string;
  size: number;
  version: string;
}

/**
 * The objects an S3 notification says were created in `bucket`, whichever way it came (S3 → Lambda,
 * S3 → SQS, or s3rver locally, all in the same shape). Keys arrive URL-encoded with spaces as "+".
 * Anything else (test events, deletions, other buckets) is left out on purpose. Lazy, so a key that
 * does not decode stops the caller only when it reaches it.
 */
export function* objectsCreatedIn(bucket: string, notification: Partial<S3Event>): Generator<CreatedObject> {
  for (const record of notification.Records ?? []) {
    if (!record.eventName.startsWith("ObjectCreated:")) continue;
    if (record.s3.bucket.name !== bucket) continue;
    yield {
      key: decodeURIComponent(record.s3.object.key.replace(/\+/g, " ")),
      size: record.s3.object.size,
      version: record.s3.object.sequencer ?? record.s3.object.eTag ?? "",
    };
  }
}
