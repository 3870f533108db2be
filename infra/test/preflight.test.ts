import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App, AssetStaging, CfnResource, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import * as s3assets from "aws-cdk-lib/aws-s3-assets";
import * as sns from "aws-cdk-lib/aws-sns";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preflightFunctionTimeoutSeconds, preflightRedLogMessage } from "../../functions/src/preflight/definition";
import { createDorsal, repoRoot } from "../lib/dorsal-app";
import { DorsalFunction } from "../lib/dorsal-function";
import { deployedCodeVariable, Preflight } from "../lib/preflight";

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
type Statement = { Action: string | string[]; Resource: unknown };

// The whole app once, as `npx cdk deploy --all` builds it with cdk.json's context: how the stack
// wires the preflight. The flags and the fingerprint are checked on a small stack below.
const context = JSON.parse(readFileSync(path.join(repoRoot, "cdk.json"), "utf8")).context;
const app = new App({ context });
const { stateless } = createDorsal(app);
let code: Template;

beforeAll(() => {
  app.synth();
  code = Template.fromStack(stateless);
});

const id = (construct: IConstruct) => stateless.getLogicalId(construct.node.defaultChild as never);
const resources = () => code.toJSON().Resources as Record<string, Resource>;
const probeId = () => id(stateless.preflightFunction.fn);
const variablesOf = (fn: DorsalFunction) =>
  ((resources()[id(fn.fn)] as Resource).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const statementsOf = (fn: DorsalFunction) => {
  const role = [{ Ref: id(fn.role) }];
  return Object.values(code.findResources("AWS::IAM::Policy"))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify(role))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
};
const idsOf = (type: string) =>
  Object.entries(resources())
    .filter(([, resource]) => resource.Type === type)
    .map(([logicalId]) => logicalId);
const resourceIdsUnder = (scope: IConstruct) =>
  scope.node
    .findAll()
    .filter((construct): construct is CfnResource => construct instanceof CfnResource)
    .map((resource) => stateless.getLogicalId(resource));

describe("the preflight after a deploy", () => {
  const trigger = () => {
    const [entry, ...others] = Object.entries(resources()).filter(([, r]) => r.Type === "Custom::Trigger");
    expect(others).toEqual([]);
    return entry as [string, Resource];
  };

  it("invokes the function's current version and waits for its verdict, within the trigger's 15 minutes", () => {
    const [, resource] = trigger();
    expect(resource.Properties).toMatchObject({
      // CDK names the version after a hash of the function's configuration.
      HandlerArn: {
        Ref: stateless.resolve(
          (stateless.preflightFunction.fn.currentVersion.node.defaultChild as CfnResource).logicalId,
        ),
      },
      InvocationType: "RequestResponse",
      ExecuteOnHandlerChange: true,
    });
    // CDK's trigger handler has 15 minutes in all to invoke and answer CloudFormation.
    expect(Number(resource.Properties.Timeout)).toBe(14 * 60 * 1000);
  });

  it("runs once the site's files, the API, the pipeline and the first admin are deployed", () => {
    const [, resource] = trigger();
    const after = resource.DependsOn ?? [];
    const needed = [
      ...idsOf("Custom::CDKBucketDeployment"),
      ...idsOf("AWS::ApiGatewayV2::Stage"),
      ...idsOf("AWS::ApiGatewayV2::Route"),
      ...idsOf("Custom::DorsalAdminBootstrap"),
      ...idsOf("AWS::StepFunctions::StateMachine"),
      ...idsOf("Custom::S3BucketNotifications"),
      ...idsOf("AWS::CloudFront::Distribution"),
    ];
    expect(idsOf("Custom::CDKBucketDeployment")).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(needed));
  });

  it("runs after every other resource of the stack, so it checks the deploy as a whole", () => {
    const [triggerId, resource] = trigger();
    const provider = stateless.node.findChild("AWSCDK.TriggerCustomResourceProviderCustomResourceProvider");
    // The preflight's own schedule and alarm, and the trigger's handler, which it references anyway.
    const own = new Set([triggerId, ...resourceIdsUnder(stateless.preflight), ...resourceIdsUnder(provider)]);
    const everythingElse = Object.keys(resources()).filter((logicalId) => !own.has(logicalId));
    expect(everythingElse.length).toBeGreaterThan(300);
    expect([...(resource.DependsOn ?? [])].sort()).toEqual(everythingElse.sort());
  });

  it("runs again on any change to a function's code or the site: the function carries a digest of the assets", () => {
    // A plain 64-hex string at synth, no token or timestamp: redeploying unchanged code changes nothing.
    expect(variablesOf(stateless.preflightFunction)[deployedCodeVariable]).toMatch(/^[0-9a-f]{64}$/);
    // The digest covers every function's bundle and the site's files (checked on a small stack below).
    const assets = stateless.node.findAll().filter((c) => c instanceof s3assets.Asset);
    expect(assets.map((asset) => asset.node.path)).toEqual(
      expect.arrayContaining([
        `${stateless.httpFunctions.photos.fn.node.path}/Code`,
        `${stateless.pipelineFunctions.detect.fn.node.path}/Code`,
        `${stateless.site.node.path}/ShellFiles`,
        `${stateless.site.node.path}/AssetFiles`,
      ]),
    );
  });
});

describe("the preflight function", () => {
  it("has Lambda's longest timeout, 1024 MB for scrypt, and no retry of a failed run", () => {
    expect(resources()[probeId()]?.Properties).toMatchObject({
      Timeout: preflightFunctionTimeoutSeconds,
      MemorySize: 1024,
    });
    expect(preflightFunctionTimeoutSeconds).toBe(900);
    code.hasResourceProperties("AWS::Lambda::EventInvokeConfig", {
      FunctionName: { Ref: probeId() },
      Qualifier: "$LATEST",
      MaximumRetryAttempts: 0,
    });
  });

  it("reads the table, the Wompi keys and the quotas; not the JWT or CloudFront keys, photos or the pipeline", () => {
    const statements = statementsOf(stateless.preflightFunction);
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:PutItem", "dynamodb:Query"]));
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining([
          "lambda:GetAccountSettings",
          "servicequotas:ListServiceQuotas",
          "servicequotas:ListAWSDefaultServiceQuotas",
        ]),
        Resource: "*",
      }),
    );
    const secrets = statements.find((statement) => [statement.Action].flat().includes("secretsmanager:GetSecretValue"));
    // It signs in over HTTP like any admin: the sign-in function mints its session.
    expect(secrets?.Resource).toEqual({ Ref: id(stateless.wompiKeys) });
    expect(actions.filter((action) => /^(s3|rekognition|states|sqs):/.test(action))).toEqual([]);
    expect(variablesOf(stateless.preflightFunction)).toMatchObject({
      CLOUDFRONT_DOMAIN: expect.anything(),
      WOMPI_SECRET_ARN: { Ref: id(stateless.wompiKeys) },
    });
  });

  it("skips a deploy's run while its stack rolls back: it knows the stack and may read its status", () => {
    const stackId = { Ref: "AWS::StackId" };
    expect(variablesOf(stateless.preflightFunction).STACK_ID).toEqual(stackId);
    expect(statementsOf(stateless.preflightFunction)).toContainEqual(
      expect.objectContaining({ Action: "cloudformation:DescribeStacks", Resource: stackId }),
    );
  });

  it("is the only function that reads quotas", () => {
    const readers = Object.values(code.findResources("AWS::IAM::Policy")).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes("servicequotas:"),
    );
    expect(readers.map((policy) => policy.Properties.Roles)).toEqual([[{ Ref: id(stateless.preflightFunction.role) }]]);
  });

  it("is started by the admin API for /preflight's runs", () => {
    expect(variablesOf(stateless.httpFunctions.admin).PREFLIGHT_FUNCTION_NAME).toEqual({ Ref: probeId() });
    const arn = { "Fn::GetAtt": [probeId(), "Arn"] };
    expect(statementsOf(stateless.httpFunctions.admin)).toContainEqual(
      expect.objectContaining({ Action: "lambda:InvokeFunction", Resource: [arn, { "Fn::Join": ["", [arn, ":*"]] }] }),
    );
    // Nothing else starts one.
    const holders = Object.entries(resources()).filter(
      ([, resource]) =>
        resource.Type === "AWS::Lambda::Function" && JSON.stringify(resource.Properties).includes("PREFLIGHT_FUNCTION"),
    );
    expect(holders.map(([logicalId]) => logicalId)).toEqual([id(stateless.httpFunctions.admin.fn)]);
  });

  it("runs every 6 hours by default, as a scheduled run", () => {
    code.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(6 hours)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [probeId(), "Arn"] }, Input: '{"trigger":"schedule"}' })],
    });
  });

  it("alarms on any RED run, from its log line, and on its errors and throttles, through the alarm topic", () => {
    const topic = [{ Ref: id(stateless.alarms.topic) }];
    code.hasResourceProperties("AWS::Logs::MetricFilter", {
      LogGroupName: { Ref: id(stateless.preflightFunction.logGroup) },
      FilterPattern: `{ $.message = "${preflightRedLogMessage}" }`,
      MetricTransformations: [{ MetricNamespace: "Dorsal", MetricName: "PreflightRed", MetricValue: "1" }],
    });
    code.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "Dorsal",
      MetricName: "PreflightRed",
      Statistic: "Sum",
      Period: 300,
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
      AlarmActions: topic,
      OKActions: topic,
    });
    expect(stateless.alarms.functionFailures.PreflightRun).toBeDefined();
  });

  it("is named by an output, to invoke it by hand", () => {
    code.hasOutput("PreflightFunctionName", { Value: { Ref: probeId() } });
  });
});

// A small stack: a stand-in preflight function, an admin function, an app function whose code the
// test changes, and a site-like asset, each a file in a temporary directory.
const work = mkdtempSync(path.join(tmpdir(), "infra-preflight-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(relative: string, contents: string): string {
  const target = path.join(work, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, contents);
  return target;
}

const handler = (answer: string) => `export const handler = async () => (${JSON.stringify(answer)});\n`;
file("probe/index.ts", handler("probe"));
file("admin/index.ts", handler("admin"));

function preflightStack(options: { context?: Record<string, string>; appCode?: string; site?: string } = {}) {
  // A deploy is a process of its own: CDK's asset cache (one per process, keyed on the source path)
  // would otherwise hand back the previous synth's hashes for the changed files.
  AssetStaging.clearAssetHashCache();
  const app = new App({ context: options.context ?? {} });
  const stack = new Stack(app, "PreflightTest");
  const fn = (name: string, entry: string) =>
    new DorsalFunction(stack, name, { entry: path.join(work, entry), description: name });
  const probe = fn("Probe", "probe/index.ts");
  const appFunction = fn("AppFunction", path.relative(work, file("app/index.ts", options.appCode ?? handler("a"))));
  file("site/index.html", options.site ?? "<h1>a</h1>");
  const site = new s3assets.Asset(stack, "Site", { path: path.join(work, "site") });
  const preflight = new Preflight(stack, "Preflight", {
    probe,
    admin: fn("Admin", "admin/index.ts"),
    topic: new sns.Topic(stack, "Topic", { enforceSSL: true }),
    executeAfter: [appFunction, site],
  });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const probeFunction = resources[stack.getLogicalId(probe.fn.node.defaultChild as never)] as Resource;
  const variables = (probeFunction.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const trigger = Object.values(resources).find((resource) => resource.Type === "Custom::Trigger");
  return { app, stack, preflight, template, fingerprint: variables[deployedCodeVariable], trigger };
}

describe("the preflight's fingerprint of what is deployed", () => {
  const first = preflightStack();

  it("is the same for the same code", () => {
    expect(first.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const again = preflightStack();
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(again.trigger?.Properties.HandlerArn).toEqual(first.trigger?.Properties.HandlerArn);
  });

  it("changes with one function's code, and with it the version the trigger invokes", () => {
    const changed = preflightStack({ appCode: handler("b") });
    expect(changed.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    expect(changed.trigger?.Properties.HandlerArn).not.toEqual(first.trigger?.Properties.HandlerArn);
  });

  it("changes with the site's files", () => {
    const changed = preflightStack({ site: "<h1>b</h1>" });
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    expect(changed.trigger?.Properties.HandlerArn).not.toEqual(first.trigger?.Properties.HandlerArn);
  });

  it("leaves cdk-nag and CDK without a finding", () => {
    first.app.synth();
    expect(new AwsSolutionsChecks().validateScope(first.app).violations).toEqual([]);
    expect(Annotations.fromStack(first.stack).findWarning("*", Match.anyValue())).toEqual([]);
  });
});

describe("the preflight's context values", () => {
  it("-c preflightSchedule sets the schedule (rate or cron), and off removes it", () => {
    const cron = "cron(0 5 * * ? *)";
    preflightStack({ context: { preflightSchedule: cron } }).template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: cron,
    });
    preflightStack({ context: { preflightSchedule: "rate(30 minutes)" } }).template.hasResourceProperties(
      "AWS::Events::Rule",
      { ScheduleExpression: "rate(30 minutes)" },
    );
    const off = preflightStack({ context: { preflightSchedule: "off" } });
    off.template.resourceCountIs("AWS::Events::Rule", 0);
    expect(off.preflight.schedule).toBeUndefined();
    // The deploy's run and the alarm stay.
    off.template.resourceCountIs("Custom::Trigger", 1);
    off.template.resourceCountIs("AWS::CloudWatch::Alarm", 1);
    expect(() => preflightStack({ context: { preflightSchedule: "every 6 hours" } })).toThrow(/rate\(…\) or cron\(…\)/);
    expect(() => preflightStack({ context: { preflightSchedule: "rate(6 hour" } })).toThrow(/preflightSchedule/);
  });

  it("-c preflightOnDeploy=false removes the run after the deploy, and its fingerprint", () => {
    const off = preflightStack({ context: { preflightOnDeploy: "false" } });
    off.template.resourceCountIs("Custom::Trigger", 0);
    off.template.resourceCountIs("AWS::Lambda::Version", 0);
    expect(off.fingerprint).toBeUndefined();
    // Nothing to skip during a rollback without the run.
    expect(JSON.stringify(off.template.toJSON())).not.toContain("cloudformation:DescribeStacks");
    // The schedule, the admin's runs and the alarm stay.
    off.template.resourceCountIs("AWS::Events::Rule", 1);
    off.template.resourceCountIs("AWS::CloudWatch::Alarm", 1);
    expect(preflightStack({ context: { preflightOnDeploy: "true" } }).trigger).toBeDefined();
    expect(() => preflightStack({ context: { preflightOnDeploy: "no" } })).toThrow(/true or false/);
  });
});
