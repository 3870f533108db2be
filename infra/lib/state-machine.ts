import { RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Construct } from "constructs";

/**
 * A Standard state machine of one of the definitions the local runtime also runs (the pipeline's, a
 * background job's), traced, logging every state to its own log group, and allowed to invoke exactly
 * the functions its Task states name. The definitions use plain Lambda ARNs as Resources, so each
 * function receives the state as its event, as the local runner calls it.
 */
export function localTwinStateMachine(
  scope: Construct,
  definition: object,
  props: {
    invokes: lambda.IFunction[];
    /** Whether the log keeps each state's data too; a job that loops hundreds of times keeps its progress elsewhere. */
    includeExecutionData: boolean;
  },
): sfn.StateMachine {
  const stateMachine = new sfn.StateMachine(scope, "StateMachine", {
    stateMachineType: sfn.StateMachineType.STANDARD,
    definitionBody: sfn.DefinitionBody.fromString(Stack.of(scope).toJsonString(definition)),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, "ExecutionLogs", {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      level: sfn.LogLevel.ALL,
      includeExecutionData: props.includeExecutionData,
    },
  });
  // Unqualified ARNs only, exactly what the definition invokes (a grantInvoke would add `:*`).
  stateMachine.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ["lambda:InvokeFunction"],
      resources: props.invokes.map((fn) => fn.functionArn),
    }),
  );
  Validations.of(stateMachine).acknowledge({
    id: "AwsSolutions-IAM5[Resource::*]",
    reason:
      "Execution logging (logs:*LogDelivery*, DescribeLogGroups…) and X-Ray tracing support no " +
      "resource-level scoping.",
  });
  return stateMachine;
}
