import type { S3Event } from "aws-lambda";
import type { Logger } from "../logger";
import type { ObjectStore } from "../ports/object-store";
import type { PipelineStarter } from "../ports/pipeline";
import { objectsCreatedIn } from "./s3-notifications";
import { parseOriginalKey } from "./storage-paths";

/**
 * Turns S3 object-created notifications (as delivered through SQS, or by the local runtime in the
 * same shape) into pipeline executions, one per original photo. Anything else — test events,
 * derived images, deletions — is ignored on purpose.
 */
export async function startPipelineFor(
  deps: { pipeline: PipelineStarter; objects: ObjectStore; logger: Logger },
  notification: Partial<S3Event> & { Event?: string },
): Promise<number> {
  let started = 0;
  const bucket = deps.objects.bucketName("originals");
  for (const { key, size, version } of objectsCreatedIn(bucket, notification)) {
    if (!parseOriginalKey(key)) {
      deps.logger.warn("ignoring object outside the originals layout", { key });
      continue;
    }
    const result = await deps.pipeline.start({ bucket, key, size, version });
    if (!result.alreadyStarted) started++;
  }
  return started;
}
