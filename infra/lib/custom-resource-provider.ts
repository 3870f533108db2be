import { RemovalPolicy } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import * as cr from "aws-cdk-lib/custom-resources";
import { Construct } from "constructs";
import type { DorsalFunction } from "./dorsal-function";
import { acknowledgeWildcardResource } from "./nag";

/**
 * aws-cdk-lib's custom-resource provider framework in front of one of our functions: the function
 * (onEvent) only returns `{ PhysicalResourceId, Data }` or throws; the framework's own function
 * calls it and answers CloudFormation, with the error as the reason when it throws or times out.
 *
 * The framework function gets a role of ours, allowed to write only to its own log group (kept a
 * month, like every function's) and to invoke the onEvent function, instead of CDK's default role
 * with the AWS managed AWSLambdaBasicExecutionRole policy.
 */
export class CustomResourceProvider extends Construct {
  readonly provider: cr.Provider;
  /** The framework function's role. */
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, onEvent: DorsalFunction) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, "Logs", {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, "Role", { assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com") });
    this.logGroup.grantWrite(this.role);

    this.provider = new cr.Provider(this, "Provider", {
      onEventHandler: onEvent.fn,
      frameworkOnEventRole: this.role,
      logGroup: this.logGroup,
    });

    acknowledgeWildcardResource(
      this.role,
      `${onEvent.fn.functionArn}:*`,
      "CDK's grantInvoke on the onEvent function: the function and its versions/aliases (`:*`), nothing else.",
    );
  }

  get serviceToken(): string {
    return this.provider.serviceToken;
  }
}
