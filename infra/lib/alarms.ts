import { Duration, Validations } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import { Construct, type IConstruct } from "constructs";
import type { Pipeline } from "./pipeline";

/**
 * Where alarms are emailed, from the `alarmEmail` context value (`-c alarmEmail=ops@org.co`);
 * undefined without it (the topic then has no subscription until someone adds one).
 */
export function alarmEmailFrom(scope: IConstruct): string | undefined {
  const given: unknown = scope.node.tryGetContext("alarmEmail");
  if (given === undefined || given === null || String(given).trim() === "") return undefined;
  const email = String(given).trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new Error(`The alarmEmail context value is not an email address: ${JSON.stringify(given)}`);
  }
  return email;
}

export interface AlarmsProps {
  pipeline: Pipeline;
  /** Subscribed to the topic by email when given. */
  email?: string;
}

/**
 * The pipeline's alarms (docs/capacity.md, § Alarms), both on "anything at all": a photo whose
 * notification reached the dead-letter queue, or whose execution failed outright, is a photo that
 * is not searchable and has no recorded reason. Photos that fail for a reason (bad file, unknown
 * event) go through the `fail` task and end successfully, so they raise no alarm.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly deadLetters: cloudwatch.Alarm;
  readonly failedExecutions: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);

    this.topic = new sns.Topic(this, "Topic", { displayName: "Dorsal alarms", enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: "AwsSolutions-SNS2",
      reason:
        "Alarm notifications carry only alarm names and metric values. CloudWatch cannot publish to a topic " +
        "encrypted with the AWS managed SNS key, and a customer managed key would cost more than the data is worth.",
    });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
    const notify = new actions.SnsAction(this.topic);

    // Either count should be zero: one photo in either is worth a look.
    const onAny = (id: string, alarmDescription: string, metric: cloudwatch.IMetric) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription,
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    this.deadLetters = onAny(
      "DeadLetters",
      "Upload notifications in the pipeline's dead-letter queue: photos that never started. " +
        "Fix the cause, then redrive the queue (docs/deploy.md, Operating).",
      props.pipeline.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
    );
    this.failedExecutions = onAny(
      "FailedExecutions",
      "Pipeline executions that failed (ExecutionsFailed): even the fail task could not record the photo. " +
        "See the state machine's execution logs.",
      props.pipeline.stateMachine.metricFailed({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
    );

    for (const alarm of [this.deadLetters, this.failedExecutions]) {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }
  }
}
