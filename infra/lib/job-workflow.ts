import type * as lambda from "aws-cdk-lib/aws-lambda";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { type BackgroundJob, buildJobDefinition } from "../../functions/src/jobs/definitions";
import { localTwinStateMachine } from "./state-machine";

/**
 * A background job's workflow (functions/src/jobs/definitions.ts): the definition the local runtime
 * also runs, looping over one function that works a time slice at a time.
 */
export class JobWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: { job: BackgroundJob; slice: lambda.IFunction }) {
    super(scope, id);
    this.stateMachine = localTwinStateMachine(this, buildJobDefinition(props.job, props.slice.functionArn), {
      invokes: [props.slice],
      // A job loops hundreds of times and keeps its progress in the table: the log keeps the states, not their data.
      includeExecutionData: false,
    });
  }
}
