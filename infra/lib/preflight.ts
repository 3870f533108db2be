import { createHash } from "node:crypto";
import { Duration, Lazy, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3assets from "aws-cdk-lib/aws-s3-assets";
import type * as sns from "aws-cdk-lib/aws-sns";
import * as triggers from "aws-cdk-lib/triggers";
import { Construct, type IConstruct } from "constructs";
import { type PreflightInvocation, preflightRedLogMessage } from "../../functions/src/preflight/definition";
import type { DorsalFunction } from "./dorsal-function";
import { acknowledgeWildcardResource } from "./nag";

/** `-c preflightSchedule=<rate(…) or cron(…)>`, or `off`: when EventBridge runs the preflight. */
export const preflightScheduleContext = "preflightSchedule";
/** Every 6 hours: a broken stage shows up within a working day, for a few cents a month. */
export const defaultPreflightSchedule = "rate(6 hours)";
/** `-c preflightOnDeploy=false`: no run after the deploy, so a RED cannot fail it (emergencies). */
export const preflightOnDeployContext = "preflightOnDeploy";
/** The preflight function's variable holding `deployedCodeFingerprint`. */
export const deployedCodeVariable = "DEPLOYED_CODE";

/** What the schedule sends: recorded as a scheduled run, which logs RED rather than throwing. */
const scheduledRun: PreflightInvocation = { trigger: "schedule" };

const rate = /^rate\(\d+ (minute|minutes|hour|hours|day|days)\)$/;
const cron = /^cron\(\S+( \S+){5}\)$/;

/** The schedule expression from the context, the default without one, undefined for `off`. */
export function preflightScheduleFrom(scope: IConstruct): string | undefined {
  const given: unknown = scope.node.tryGetContext(preflightScheduleContext);
  if (given === undefined || given === null || String(given).trim() === "") return defaultPreflightSchedule;
  const expression = String(given).trim();
  if (expression === "off") return undefined;
  if (rate.test(expression) || cron.test(expression)) return expression;
  throw new Error(
    `The ${preflightScheduleContext} context value is an EventBridge rate(…) or cron(…) expression, ` +
      `e.g. "${defaultPreflightSchedule}", or off; not ${JSON.stringify(given)}`,
  );
}

/** Whether a deploy runs the preflight and fails on RED (the default) or not. */
export function runsPreflightOnDeploy(scope: IConstruct): boolean {
  const given: unknown = scope.node.tryGetContext(preflightOnDeployContext);
  if (given === undefined || given === null || given === true || given === "true") return true;
  if (given === false || given === "false") return false;
  throw new Error(`The ${preflightOnDeployContext} context value is true or false, not ${JSON.stringify(given)}`);
}

/**
 * A digest of every file asset of the scope's stack, each named by its construct path: every
 * function's bundle (CDK hashes the bundled output), the site's files, CDK's own handlers. Resolved
 * at synth, once every construct exists; the same code gives the same digest, so synth stays
 * deterministic.
 */
export function deployedCodeFingerprint(scope: IConstruct): string {
  const stack = Stack.of(scope);
  return Lazy.string({
    produce: () => {
      const assets = stack.node
        .findAll()
        .filter((construct): construct is s3assets.Asset => construct instanceof s3assets.Asset)
        .map((asset) => `${asset.node.path} ${asset.assetHash}`)
        .sort();
      return createHash("sha256").update(assets.join("\n")).digest("hex");
    },
  });
}

export interface PreflightProps {
  /**
   * The preflight function (functions/src/handlers/preflight.ts), built and granted like every
   * function of the stack.
   */
  probe: DorsalFunction;
  /** The admin API's function: it starts the runs admins ask for on /preflight. */
  admin: DorsalFunction;
  /** Where the RED alarm notifies: the stack's alarm topic. */
  topic: sns.ITopic;
  /**
   * What a deploy's run waits for: everything the probe goes through (the site's files, the API's
   * routes and stage, the functions and their grants, the pipeline, the first admin).
   */
  executeAfter: Construct[];
}

/**
 * The preflight on AWS (issue 21): one function that pushes a probe through every stage, run
 * - after every deploy that changes code or the site, by a CDK trigger, synchronously: a RED run
 *   throws, so the deploy fails (and CloudFormation rolls it back); `-c preflightOnDeploy=false`
 *   leaves it out;
 * - on a schedule (`-c preflightSchedule`, every 6 hours by default, `off` for none);
 * - on demand from /preflight, through the admin API.
 * Any run that ends RED logs `preflightRedLogMessage`, which raises the `PreflightRed` alarm.
 *
 * A failed run is never retried by Lambda: a second run minutes later would redo the whole probe
 * and record a second verdict for one request.
 */
export class Preflight extends Construct {
  readonly probe: DorsalFunction;
  /** Undefined with `-c preflightSchedule=off`. */
  readonly schedule: events.Rule | undefined;
  /** Undefined with `-c preflightOnDeploy=false`. */
  readonly trigger: triggers.Trigger | undefined;
  readonly redRuns: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: PreflightProps) {
    super(scope, id);
    this.probe = props.probe;
    const { fn } = props.probe;
    fn.configureAsyncInvoke({ retryAttempts: 0 });

    props.admin.fn.addEnvironment("PREFLIGHT_FUNCTION_NAME", fn.functionName);
    fn.grantInvoke(props.admin.fn);
    acknowledgeWildcardResource(
      props.admin,
      `${fn.functionArn}:*`,
      "CDK's grantInvoke on the preflight function: the function and its versions (`:*`), nothing else.",
    );

    const schedule = preflightScheduleFrom(this);
    this.schedule = schedule
      ? new events.Rule(this, "Schedule", {
          description: `Runs the preflight (-c ${preflightScheduleContext})`,
          schedule: events.Schedule.expression(schedule),
          targets: [new targets.LambdaFunction(fn, { event: events.RuleTargetInput.fromObject(scheduledRun) })],
        })
      : undefined;

    if (runsPreflightOnDeploy(this)) {
      // The trigger runs again only when its handler, the function's current version, changes. The
      // fingerprint of everything deployed is part of the function's configuration, so a change to
      // any function or to the site publishes a new version, and the deploy runs the preflight.
      fn.addEnvironment(deployedCodeVariable, deployedCodeFingerprint(this));
      // CloudFormation's rollback updates the trigger back, which runs the previous version against
      // a stack half undone: the function asks its stack's status and skips the run then.
      const stack = Stack.of(this);
      fn.addEnvironment("STACK_ID", stack.stackId);
      fn.addToRolePolicy(
        new iam.PolicyStatement({ actions: ["cloudformation:DescribeStacks"], resources: [stack.stackId] }),
      );
      // A version matters only to the deploy that published it; CloudFormation deletes the old one
      // once the next deploy has succeeded (a rollback still finds it).
      fn.currentVersion.applyRemovalPolicy(RemovalPolicy.DESTROY);
      this.trigger = new triggers.Trigger(this, "AfterDeploy", {
        handler: fn,
        // The deploy waits for the verdict; a RED run throws, which fails the trigger.
        invocationType: triggers.InvocationType.REQUEST_RESPONSE,
        // The function may take up to 15 minutes, but the trigger's own handler has 15 in all:
        // past 14 the deploy fails on the timeout instead of the run's verdict.
        timeout: Duration.minutes(14),
        executeAfter: props.executeAfter,
      });
      Validations.of(fn).acknowledge({
        id: "@aws-cdk/aws-lambda:addPermissionsToVersionOrAlias",
        reason:
          "No resource-based permission is meant for a version: the trigger's role invokes `<function>:*` by its " +
          "own policy, while the schedule and the admin API invoke the unqualified function.",
      });
    }

    const red = new logs.MetricFilter(this, "RedFilter", {
      logGroup: props.probe.logGroup,
      filterPattern: logs.FilterPattern.stringValue("$.message", "=", preflightRedLogMessage),
      metricNamespace: "Dorsal",
      metricName: "PreflightRed",
      metricValue: "1",
    });
    // Like every alarm of the stack (infra/lib/alarms.ts): one occurrence is worth a look.
    this.redRuns = new cloudwatch.Alarm(this, "Red", {
      alarmDescription:
        "A preflight run ended RED (after a deploy, on its schedule or from /preflight): a stage a race-day " +
        "photo goes through is broken. Its checks and their details are under /preflight (history) and in the " +
        "preflight function's log.",
      metric: red.metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const notify = new actions.SnsAction(props.topic);
    this.redRuns.addAlarmAction(notify);
    this.redRuns.addOkAction(notify);
  }
}
