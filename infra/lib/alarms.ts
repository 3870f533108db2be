import { slaRule } from "@dorsal/shared";
import { Duration, Validations } from "aws-cdk-lib";
import type * as apigw from "aws-cdk-lib/aws-apigatewayv2";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as logs from "aws-cdk-lib/aws-logs";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct, type IConstruct } from "constructs";
import { photoFailedLogMessage } from "../../functions/src/pipeline/definition";
import type { DorsalFunction } from "./dorsal-function";
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
  /** The pipeline's `fail` task: it logs each photo it records as failed. */
  failTask: DorsalFunction;
  /** Every function of the app, by a name for its alarm; each alarms on its errors and throttles. */
  functions: Record<string, DorsalFunction>;
  api: apigw.HttpApi;
  /** Where the functions write the dashboard's metrics (METRICS_NAMESPACE). */
  metricsNamespace: string;
  /** Subscribed to the topic by email when given. */
  email?: string;
}

/**
 * Dorsal's alarms (docs/capacity.md, § Alarms), all on "anything at all", through one topic: a
 * photo whose notification reached the dead-letter queue, whose execution failed outright, or that
 * the `fail` task recorded as failed (its execution still succeeds, so only its log tells); a ZIP
 * import that failed after its retries; a function's errors or throttles; the API's 5xx answers.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly deadLetters: cloudwatch.Alarm;
  readonly failedExecutions: cloudwatch.Alarm;
  readonly failedPhotos: cloudwatch.Alarm;
  readonly unzipFailures: cloudwatch.Alarm;
  readonly apiServerErrors: cloudwatch.Alarm;
  /** One per function: errors + throttles. */
  readonly functionFailures: Record<string, cloudwatch.Alarm>;
  /** The spec's SLA, as the dashboard's alert: photos too slow to become searchable. */
  readonly slowSearchable: cloudwatch.Alarm;

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

    // Every count should be zero: one occurrence is worth a look.
    const onAny = (id: string, alarmDescription: string, metric: cloudwatch.IMetric) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription,
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    // A queue where what failed waits for a person: one message in it is one too many.
    const onMessagesIn = (id: string, alarmDescription: string, queue: sqs.IQueue) =>
      onAny(
        id,
        alarmDescription,
        queue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
      );
    this.deadLetters = onMessagesIn(
      "DeadLetters",
      "Upload notifications in the pipeline's dead-letter queue: photos that never started. " +
        "Fix the cause, then redrive the queue (docs/deploy.md, Operating).",
      props.pipeline.deadLetterQueue,
    );
    this.failedExecutions = onAny(
      "FailedExecutions",
      "Pipeline executions that failed (ExecutionsFailed): even the fail task could not record the photo. " +
        "See the state machine's execution logs.",
      props.pipeline.stateMachine.metricFailed({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
    );

    const failedPhotos = new logs.MetricFilter(this, "FailedPhotosFilter", {
      logGroup: props.failTask.logGroup,
      filterPattern: logs.FilterPattern.stringValue("$.message", "=", photoFailedLogMessage),
      metricNamespace: "Dorsal",
      metricName: "FailedPhotos",
      metricValue: "1",
    });
    this.failedPhotos = onAny(
      "FailedPhotos",
      "Photos recorded as failed by the pipeline's fail task (not an image, a step out of retries, Rekognition " +
        "throttled…): they are not searchable. Their reasons are listed under Errores (/processing); fix, then Reintentar.",
      failedPhotos.metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
    );
    this.unzipFailures = onMessagesIn(
      "UnzipFailures",
      "ZIP imports that failed after S3's retries: the failed invocation's event (bucket, key) is in the " +
        "UnzipFailures queue. Fix the cause, then upload the ZIP again (imported photos are not imported twice).",
      props.pipeline.unzipFailures,
    );
    this.apiServerErrors = onAny(
      "ApiServerErrors",
      "5xx answers of the HTTP API (a function crashed or ran out of time): see the function alarms and logs.",
      props.api.metricServerError({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
    );
    this.functionFailures = {};
    for (const [name, { fn }] of Object.entries(props.functions)) {
      const period = Duration.minutes(5);
      this.functionFailures[name] = onAny(
        `${name}Failures`,
        `Lambda ${name}: invocations that ended in an error, or were throttled (out of concurrency). See its log group.`,
        new cloudwatch.MathExpression({
          expression: "errors + throttles",
          label: `${name} errors + throttles`,
          period,
          usingMetrics: {
            errors: fn.metricErrors({ period, statistic: cloudwatch.Stats.SUM }),
            throttles: fn.metricThrottles({ period, statistic: cloudwatch.Stats.SUM }),
          },
        }),
      );
    }

    // The dashboard's SLA alert (shared/src/performance.ts), over the same EMF metric record writes:
    // the p95 of arrival → searchable over 5 minutes, when enough photos were measured.
    const slaPeriod = Duration.minutes(slaRule.windowMinutes);
    const searchable = (statistic: string) =>
      new cloudwatch.Metric({
        namespace: props.metricsNamespace,
        metricName: "StageMs",
        dimensionsMap: { Stage: "searchable" },
        statistic,
        period: slaPeriod,
      });
    this.slowSearchable = new cloudwatch.Alarm(this, "SlowSearchable", {
      alarmDescription:
        `95 % of the photos of the last ${slaRule.windowMinutes} minutes took more than ${slaRule.warningMs / 1000} s ` +
        "from storage to searchable (the spec's SLA): see /performance-dashboard for the slow stage.",
      metric: new cloudwatch.MathExpression({
        expression: `IF(photos >= ${slaRule.minimumPhotos}, p95, 0)`,
        label: "searchable p95 (ms)",
        period: slaPeriod,
        usingMetrics: { photos: searchable(cloudwatch.Stats.SAMPLE_COUNT), p95: searchable("p95") },
      }),
      threshold: slaRule.warningMs,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const all = [
      this.slowSearchable,
      this.deadLetters,
      this.failedExecutions,
      this.failedPhotos,
      this.unzipFailures,
      this.apiServerErrors,
      ...Object.values(this.functionFailures),
    ];
    for (const alarm of all) {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }
  }
}
