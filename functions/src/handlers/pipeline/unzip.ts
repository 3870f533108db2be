import type { S3Event } from "aws-lambda";
import { importZipsFrom } from "../../app/zip-batches";
import { type ContainerLoader, getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/**
 * S3 object-created under uploads/zips/ → extraction of that ZIP into the event's originals. In AWS
 * S3 invokes it directly (asynchronously, with retries); locally the runtime calls it for s3rver's
 * event. Each extracted photo's own object-created event then starts the photo pipeline.
 */
export const createUnzipHandler =
  (load: ContainerLoader) =>
  async (event: S3Event): Promise<void> => {
    const { deps, logger } = await load();
    await importZipsFrom(deps, logger, event);
  };

export const handler = lambdaEntry("ZIP import", createUnzipHandler(getContainer));
