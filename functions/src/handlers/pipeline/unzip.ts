import type { S3Event } from "aws-lambda";
import { importZipsFrom } from "../../app/zip-import";
import { getContainer } from "../../compose";

/**
 * S3 object-created under uploads/zips/ → extraction of that ZIP into the event's originals. In AWS
 * S3 invokes it directly (asynchronously, with retries); locally the runtime calls it for s3rver's
 * event. Each extracted photo's own object-created event then starts the photo pipeline.
 */
export const handler = async (event: S3Event): Promise<void> => {
  const { deps, logger } = await getContainer();
  await importZipsFrom(deps, logger, event);
};
