import path from "node:path";
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { LambdaBundles } from "./bundling";

export interface DorsalFunctionProps {
  /** TypeScript file exporting `handler`. */
  entry: string;
  /** Bundles that hold `entry`, built with the stack's other functions. @default the entry bundled alone */
  bundles?: LambdaBundles;
  description: string;
  /** @default 512 */
  memorySize?: number;
  /** @default 10 seconds */
  timeout?: Duration;
  environment?: Record<string, string>;
  /** @default one month */
  logRetention?: logs.RetentionDays;
  /** Concurrency set aside for (and capping) this function; see docs/capacity.md. @default none */
  reservedConcurrentExecutions?: number;
}

/**
 * Every Lambda function of Dorsal, with the same defaults: Node 22, an esbuild ES module bundle,
 * X-Ray tracing, its own log group with a retention, and its own role that may write only to that
 * log group until the caller grants more. Grants go to `fn` as usual.
 *
 * Functions run on Graviton (arm64), which costs less per GB-second, except those whose bundle
 * imports sharp: they carry sharp's prebuilt linux-x64 binaries and run on x86_64.
 */
export class DorsalFunction extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: DorsalFunctionProps) {
    super(scope, id);
    const bundler = (props.bundles ?? new LambdaBundles([props.entry])).bundlerOf(props.entry);

    this.logGroup = new logs.LogGroup(this, "Logs", {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An explicit role instead of the default one, which would carry the AWS managed
    // AWSLambdaBasicExecutionRole policy (logs on every group in the account).
    this.role = new iam.Role(this, "Role", { assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com") });
    this.logGroup.grantWrite(this.role);

    this.fn = new lambda.Function(this, "Function", {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: bundler.usesSharp ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      handler: bundler.handler,
      code: lambda.Code.fromAsset(path.dirname(props.entry), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never pulled: the in-process esbuild bundler always succeeds or throws.
          image: DockerImage.fromRegistry("dorsal/no-docker-bundling"),
          local: bundler,
        },
      }),
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      environment: { NODE_OPTIONS: "--enable-source-maps", ...props.environment },
    });

    Validations.of(this).acknowledge(
      {
        id: "AwsSolutions-IAM5[Resource::*]",
        reason: "X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level scoping.",
      },
      {
        id: "AwsSolutions-L1",
        reason:
          "Pinned to nodejs22.x, the runtime the bundles target and the code is tested on; moving to a newer " +
          "Node is a deliberate upgrade, not a side effect of a CDK bump.",
      },
    );
  }
}
