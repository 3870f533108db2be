import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { startPipelineFor } from "../../app/starter";
import { type ContainerLoader, getContainer } from "../../compose";
import { lambdaEntry } from "../middy";

/**
 * SQS → Step Functions: each message is an S3 notification. A message that fails is reported back
 * alone (partial batch response), so SQS retries just that one and, after its limit, dead-letters it.
 */
export const createStarterHandler =
  (load: ContainerLoader) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const { deps, logger } = await load();
    const batchItemFailures: SQSBatchResponse["batchItemFailures"] = [];
    for (const message of event.Records) {
      try {
        await startPipelineFor({ pipeline: deps.pipeline, objects: deps.objects, logger }, JSON.parse(message.body));
      } catch (error) {
        logger.error("could not start the pipeline", { messageId: message.messageId, error });
        batchItemFailures.push({ itemIdentifier: message.messageId });
      }
    }
    return { batchItemFailures };
  };

export const handler = lambdaEntry("pipeline starter", createStarterHandler(getContainer));
