import { Duration, Validations } from "aws-cdk-lib";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as destinations from "aws-cdk-lib/aws-lambda-destinations";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3n from "aws-cdk-lib/aws-s3-notifications";
import * as sqs from "aws-cdk-lib/aws-sqs";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { zipUploadPrefix } from "../../functions/src/app/storage-paths";
import { buildPipelineDefinition, type PipelineTask } from "../../functions/src/pipeline/definition";
import { capacity, queueVisibilityTimeout } from "./capacity";
import { acknowledgeCdkSingleton } from "./nag";
import { localTwinStateMachine } from "./state-machine";
import { photoKeyPrefix } from "./stateful-stack";

export interface PipelineProps {
  /** One function per task of the shared definition. */
  tasks: Record<PipelineTask, lambda.IFunction>;
  /** Turns queued S3 notifications into executions; gets STATE_MACHINE_ARN and the right to start. */
  starter: lambda.Function;
  /** Extracts uploaded ZIPs; each photo it writes then comes back through the queue like any upload. */
  unzip: lambda.Function;
  originals: s3.IBucket;
}

/**
 * The photo pipeline: every original that lands under `eventos/` is announced by S3 to a queue
 * (a buffer against upload bursts, with a dead-letter queue so no notification is lost), and the
 * starter turns each into one Step Functions execution of the definition that the local runtime
 * also runs. Task Resources are plain Lambda ARNs, so each task receives the state as its event
 * and its return value is the result, exactly as LambdaInvoke with payloadResponseOnly and the
 * local runner behave.
 */
export class Pipeline extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  /** ZIP imports that still failed after S3's two retries, kept for a look (and an alarm). */
  readonly unzipFailures: sqs.Queue;

  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id);

    const definition = buildPipelineDefinition((task) => props.tasks[task].functionArn);
    this.stateMachine = localTwinStateMachine(this, definition, {
      invokes: Object.values(props.tasks),
      includeExecutionData: true,
    });

    this.deadLetterQueue = new sqs.Queue(this, "DeadLetters", {
      retentionPeriod: capacity.deadLetterRetention,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const { batchSize, maxBatchingWindow, maxConcurrency } = capacity.starter;
    this.queue = new sqs.Queue(this, "Uploads", {
      // Longer than the starter can hold a batch, or SQS hands the same batch out twice.
      visibilityTimeout: queueVisibilityTimeout(props.starter.timeout ?? capacity.starter.timeout, maxBatchingWindow),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: capacity.maxReceiveCount },
    });

    props.originals.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.SqsDestination(this.queue), {
      prefix: photoKeyPrefix,
    });
    acknowledgeCdkSingleton(this, "BucketNotificationsHandler", {
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
      reason: "CDK's handler that writes the notification configuration onto the bucket; aws-cdk-lib defines its role.",
    });

    // A ZIP is one object and one long job, not a photo: S3 invokes its function directly
    // (asynchronously, retried twice; a retry resumes where the last run stopped) instead of
    // queueing it for the starter, and the queue's `eventos/` filter never sees it.
    props.originals.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(props.unzip), {
      prefix: zipUploadPrefix,
    });
    this.unzipFailures = new sqs.Queue(this, "UnzipFailures", {
      retentionPeriod: capacity.deadLetterRetention,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.unzipFailures).acknowledge({
      id: "AwsSolutions-SQS3",
      reason:
        "The unzip function's on-failure destination: it is itself where failed invocations land, and nothing " +
        "consumes it but a person reading the failed ZIP's event.",
    });
    props.unzip.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new destinations.SqsDestination(this.unzipFailures),
    });

    props.starter.addEnvironment("STATE_MACHINE_ARN", this.stateMachine.stateMachineArn);
    this.stateMachine.grantStartExecution(props.starter);
    props.starter.addEventSource(
      new SqsEventSource(this.queue, { batchSize, maxBatchingWindow, maxConcurrency, reportBatchItemFailures: true }),
    );
  }
}
