import { RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { type BackgroundJob, buildJobDefinition } from "../../functions/src/jobs/definitions";

/**
 * A background job's workflow (functions/src/jobs/definitions.ts): the definition the local runtime
 * also runs, looping over one function that works a time slice at a time. Its Resource is the plain
 * Lambda ARN, so the slice function receives the state as its event, as the local runner calls it.
 */
export class JobWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: { job: BackgroundJob; slice: lambda.IFunction }) {
    super(scope, id);
    const definition = buildJobDefinition(props.job, props.slice.functionArn);
    this.stateMachine = new sfn.StateMachine(this, "StateMachine", {
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
      tracingEnabled: true,
      logs: {
        destination: new logs.LogGroup(this, "ExecutionLogs", {
          retention: logs.RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
        level: sfn.LogLevel.ALL,
        // A job loops hundreds of times and keeps its progress in the table: the log keeps the states, not their data.
        includeExecutionData: false,
      },
    });
    // The unqualified ARN only, exactly what the definition invokes (a grantInvoke would add `:*`).
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({ actions: ["lambda:InvokeFunction"], resources: [props.slice.functionArn] }),
    );
    Validations.of(this.stateMachine).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Execution logging (logs:*LogDelivery*, DescribeLogGroups…) and X-Ray tracing support no " +
        "resource-level scoping.",
    });
  }
}
