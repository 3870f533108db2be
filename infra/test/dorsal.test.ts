import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { slaRule } from "@dorsal/shared";
import { App, type CfnResource, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import type { CfnRole, IRole } from "aws-cdk-lib/aws-iam";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { type CfnQueue, Queue } from "aws-cdk-lib/aws-sqs";
import { DefinitionBody, Pass, StateMachine } from "aws-cdk-lib/aws-stepfunctions";
import type { CloudAssembly } from "aws-cdk-lib/cx-api";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { beforeAll, describe, expect, it } from "vitest";
import { gsi1Attributes } from "../../functions/src/data/table-schema";
import { perAddressLimits, routeThrottles, stageThrottle } from "../../functions/src/http/abuse-limits";
import { originVerifyHeader } from "../../functions/src/http/origin-verify";
import { httpRoutes } from "../../functions/src/http/routes";
import { appContentSecurityPolicy, storedFileContentSecurityPolicy } from "../../functions/src/http/security-headers";
import { buildJobDefinition, jobSliceMs } from "../../functions/src/jobs/definitions";
import {
  buildPipelineDefinition,
  pipelineTasks,
  taskStates,
  throttleRetry,
} from "../../functions/src/pipeline/definition";
import { Alarms, alarmEmailFrom } from "../lib/alarms";
import { capacity, reservedConcurrencyTotal } from "../lib/capacity";
import { createDorsal, repoRoot } from "../lib/dorsal-app";
import type { DorsalFunction } from "../lib/dorsal-function";
import { mailFromContext } from "../lib/mail";
import type { Pipeline } from "../lib/pipeline";
import { StatefulStack } from "../lib/stateful-stack";
import { tableIndexesAt } from "../lib/table-indexes";

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string; DependsOn?: string[] };

// One synth for the whole file, with the feature flags the CLI reads from cdk.json and a sender.
const context = JSON.parse(readFileSync(path.join(repoRoot, "cdk.json"), "utf8")).context;
const app = new App({ context: { ...context, mailFrom: "Fotos Dorsal <fotos@dorsal.example>" } });
const { stateful, stateless } = createDorsal(app);
let assembly: CloudAssembly;
let data: Template;
let code: Template;

beforeAll(() => {
  assembly = app.synth();
  data = Template.fromStack(stateful);
  code = Template.fromStack(stateless);
});

const logicalId = (stack: Stack, fn: DorsalFunction) => stack.getLogicalId(fn.fn.node.defaultChild as CfnFunction);
const functionOf = (fn: DorsalFunction) => code.toJSON().Resources[logicalId(stateless, fn)] as Resource;
/** The function's code as synthesized: the asset folder of the cloud assembly. */
const assetOf = (fn: DorsalFunction) =>
  path.join(assembly.directory, `asset.${(functionOf(fn).Properties.Code as { S3Key: string }).S3Key.split(".")[0]}`);
/** The module Lambda's Node runtime loads for the handler setting: its name ends at the first dot. */
const handlerFileOf = (fn: DorsalFunction) => {
  const [, module, exported] = /^([^.]*)\.(.*)$/.exec(functionOf(fn).Properties.Handler as string) ?? [];
  expect(exported).toBe("handler");
  return `${module}.mjs`;
};
/** The statements of the policies attached to a role (CDK merges and sorts them). */
const statementsOf = (role: IRole) => {
  const ref = { Ref: stateless.getLogicalId(role.node.defaultChild as CfnRole) };
  return Object.values(code.findResources("AWS::IAM::Policy"))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref]))
    .flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    );
};
const appFunctions = () => [
  ...Object.values(stateless.httpFunctions),
  ...Object.values(stateless.pipelineFunctions),
  stateless.starter,
  stateless.unzip,
  stateless.paymentsReconciler,
  stateless.countersRecounter,
  stateless.notificationsSweeper,
  stateless.eventDeletionSlice,
  stateless.counterRecountSlice,
  stateless.faceIndexingSlice,
  stateless.preflightFunction,
  stateless.admin.bootstrapper,
];

describe("stateful stack", () => {
  it("has the single table: pk/sk, the lean gsi1v2 and gsi2, on demand, PITR, TTL, retained; functions query gsi1v2", () => {
    data.resourceCountIs("AWS::DynamoDB::Table", 1);
    data.hasResource("AWS::DynamoDB::Table", {
      DeletionPolicy: "Retain",
      Properties: {
        KeySchema: [
          { AttributeName: "pk", KeyType: "HASH" },
          { AttributeName: "sk", KeyType: "RANGE" },
        ],
        BillingMode: "PAY_PER_REQUEST",
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
        GlobalSecondaryIndexes: [
          {
            IndexName: "gsi1v2",
            KeySchema: [
              { AttributeName: "gsi1pk", KeyType: "HASH" },
              { AttributeName: "gsi1sk", KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...gsi1Attributes] },
          },
          {
            IndexName: "gsi2",
            KeySchema: [
              { AttributeName: "gsi2pk", KeyType: "HASH" },
              { AttributeName: "gsi2sk", KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: "ALL" },
          },
        ],
      },
    });
    for (const fn of appFunctions()) {
      const variables = (functionOf(fn).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.GSI1_INDEX_NAME).toBe("gsi1v2");
    }
  });

  it("moves a table made with the old gsi1 to the lean one in three deploys, one index change each", () => {
    const indexesAt = (leanIndexes?: string) => {
      const stack = new StatefulStack(new App({ context: leanIndexes ? { leanIndexes } : {} }), "Data");
      const table = Object.values(Template.fromStack(stack).findResources("AWS::DynamoDB::Table"))[0] as Resource;
      return (table.Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: unknown }[]).map(
        (index) => `${index.IndexName}:${(index.Projection as { ProjectionType: string }).ProjectionType}`,
      );
    };
    // 1. the lean index is built next to the old one; queries stay on the old one meanwhile.
    expect(indexesAt("add").sort()).toEqual(["gsi1:ALL", "gsi1v2:INCLUDE", "gsi2:ALL"]);
    expect(tableIndexesAt("add").gsi1IndexName).toBe("gsi1");
    // 2. queries move; the old index stays, so going back is a deploy with `add`.
    expect(indexesAt("switch").sort()).toEqual(["gsi1:ALL", "gsi1v2:INCLUDE", "gsi2:ALL"]);
    expect(tableIndexesAt("switch").gsi1IndexName).toBe("gsi1v2");
    // 3. the old index goes.
    expect(indexesAt().sort()).toEqual(["gsi1v2:INCLUDE", "gsi2:ALL"]);
    expect(tableIndexesAt("done").gsi1IndexName).toBe("gsi1v2");
    expect(() => indexesAt("all-at-once")).toThrow(/leanIndexes/);
  });

  it("keeps every bucket private, encrypted and TLS-only", () => {
    const buckets = data.findResources("AWS::S3::Bucket");
    expect(Object.keys(buckets)).toHaveLength(4);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toBeDefined();
    }
    const policies = Object.values(data.findResources("AWS::S3::BucketPolicy"));
    expect(policies).toHaveLength(4);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
      );
    }
  });

  it("retains the data buckets", () => {
    for (const bucket of [stateful.originals, stateful.derived, stateful.logs]) {
      expect(data.toJSON().Resources[stateful.getLogicalId(bucket.node.defaultChild as never)].DeletionPolicy).toBe(
        "Retain",
      );
    }
  });

  it("lets browsers PUT originals (ETag exposed) and aborts stale multipart uploads", () => {
    data.hasResourceProperties("AWS::S3::Bucket", {
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ["PUT", "POST", "GET", "DELETE"], ExposedHeaders: ["ETag"] })],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } })]),
      },
    });
  });

  it("expires uploaded ZIPs, download ZIPs and temporary files in the originals bucket, never the originals", () => {
    const originals = data.toJSON().Resources[stateful.getLogicalId(stateful.originals.node.defaultChild as never)];
    const rules = originals.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toEqual([
      {
        Id: "AbortIncompleteMultipartUploads",
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        Status: "Enabled",
      },
      { Id: "ExpireUploadedZips", Prefix: "uploads/zips/", ExpirationInDays: 3, Status: "Enabled" },
      { Id: "ExpireDownloadZips", Prefix: "descargas/", ExpirationInDays: 1, Status: "Enabled" },
      { Id: "ExpireTemporaryFiles", Prefix: "tmp/", ExpirationInDays: 1, Status: "Enabled" },
    ]);
    // Neither prefix may overlap the photos, which are kept for good.
    for (const rule of rules) expect(String(rule.Prefix ?? "")).not.toMatch(/^eventos/);
  });
});

describe("HTTP API", () => {
  it("throttles the stage, and sign-in and the race-day reads below it, after their routes exist", () => {
    const stages = Object.values(code.findResources("AWS::ApiGatewayV2::Stage")) as Resource[];
    expect(stages).toHaveLength(1);
    const stage = stages[0] as Resource;
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: stageThrottle.rate,
      ThrottlingBurstLimit: stageThrottle.burst,
    });
    const settings = stage.Properties.RouteSettings as Record<string, unknown>;
    expect(Object.keys(settings).sort()).toEqual(Object.keys(routeThrottles).sort());
    const routes = code.findResources("AWS::ApiGatewayV2::Route");
    for (const [routeKey, { rate, burst }] of Object.entries(routeThrottles)) {
      expect(settings[routeKey]).toEqual({ ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst });
      expect(rate).toBeLessThan(stageThrottle.rate);
      const [routeId] = Object.entries(routes).find(([, route]) => route.Properties.RouteKey === routeKey) ?? [];
      expect(routeId, routeKey).toBeDefined();
      expect(stage.DependsOn).toContain(routeId);
    }
  });

  it("has one route per httpRoutes entry, each to its handler's function", () => {
    const resources = code.toJSON().Resources as Record<string, Resource>;
    const routes = Object.values(resources).filter((r) => r.Type === "AWS::ApiGatewayV2::Route");
    expect(routes).toHaveLength(httpRoutes.length);
    for (const route of httpRoutes) {
      const found = routes.find((r) => r.Properties.RouteKey === `${route.method} ${route.path}`);
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      const target = found?.Properties.Target as { "Fn::Join": [string, [string, { Ref: string }]] };
      const integration = resources[target["Fn::Join"][1][1].Ref];
      expect(integration?.Properties.IntegrationUri).toEqual({
        "Fn::GetAtt": [logicalId(stateless, stateless.httpFunctions[route.handler]), "Arn"],
      });
      expect(integration?.Properties.PayloadFormatVersion).toBe("2.0");
    }
  });
});

describe("functions", () => {
  it("run Node 22 with X-Ray and the AWS configuration of functions/src/config.ts", () => {
    for (const fn of appFunctions()) {
      const { Properties } = functionOf(fn);
      expect(Properties.Runtime).toBe("nodejs22.x");
      expect(Properties.TracingConfig).toEqual({ Mode: "Active" });
      const variables = (Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(variables)).toEqual(
        expect.arrayContaining([
          "TABLE_NAME",
          "ORIGINALS_BUCKET",
          "DERIVED_BUCKET",
          "JWT_PUBLIC_JWK",
          "CLOUDFRONT_DOMAIN",
          "CLOUDFRONT_KEY_PAIR_ID",
          "CLOUDFRONT_PRIVATE_KEY_SECRET_ARN",
        ]),
      );
      expect(variables).toMatchObject({
        DORSAL_RUNTIME: "aws",
        VISION_ENGINE: "rekognition",
        // The dashboard's figures, one namespace per stack.
        METRICS_NAMESPACE: `Dorsal/${stateless.stackName}`,
      });
      expect(variables.JWT_PUBLIC_JWK).toEqual({
        "Fn::GetAtt": [
          stateless.getLogicalId(stateless.keys.node.findChild("Keys").node.defaultChild as never),
          "JwtPublicJwk",
        ],
      });
      // Only the sign-in function can mint a session: a leak anywhere else cannot forge an admin's.
      expect("JWT_KEY_SECRET_ARN" in variables).toBe(fn === stateless.httpFunctions.auth);
      const jwtSecret = { Ref: stateless.getLogicalId(stateless.keys.jwtKeySecret.node.defaultChild as never) };
      const readsJwtKey = statementsOf(fn.fn.role as IRole).some(
        (statement) =>
          [statement.Action].flat().includes("secretsmanager:GetSecretValue") &&
          JSON.stringify(statement.Resource) === JSON.stringify(jwtSecret),
      );
      expect(readsJwtKey).toBe(fn === stateless.httpFunctions.auth);
      // Only what starts executions: the starter, and the admin API that re-runs failed photos.
      expect("STATE_MACHINE_ARN" in variables).toBe(fn === stateless.starter || fn === stateless.httpFunctions.admin);
    }
  });

  it("ship each function's handler module with every chunk it loads, which loads on its own", () => {
    const functions = [...appFunctions(), stateless.keys.generator];
    const handlerFiles = functions.map((fn) => path.join(assetOf(fn), handlerFileOf(fn)));
    // Far from the repository's node_modules (the assembly is in the temp dir), as Lambda would load
    // them: a chunk missing from an asset, or a package the bundle expects beside it, fails the import.
    const loaded = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `for (const file of ${JSON.stringify(handlerFiles)}) {
           const { handler } = await import(file);
           if (typeof handler !== "function") throw new Error(file + " exports no handler");
         }
         process.stdout.write("loaded " + ${handlerFiles.length});`,
      ],
      { cwd: assembly.directory, encoding: "utf8" },
    );
    expect(loaded.stderr).toBe("");
    expect(loaded.stdout).toBe(`loaded ${functions.length}`);
    // What the function's asset holds is only what its own entry reaches.
    const filesOf = (fn: DorsalFunction) =>
      readdirSync(path.join(assetOf(fn), "chunks")).filter((file) => file.endsWith(".mjs"));
    expect(filesOf(stateless.keys.generator).length).toBeLessThan(filesOf(stateless.httpFunctions.admin).length);
  });

  it("ship sharp's linux-x64 binaries, on x86_64, exactly when the bundle uses sharp", () => {
    for (const fn of [...appFunctions(), stateless.keys.generator]) {
      const { Properties } = functionOf(fn);
      const asset = assetOf(fn);
      expect(existsSync(path.join(asset, handlerFileOf(fn)))).toBe(true);
      const shipsSharp = existsSync(path.join(asset, "node_modules/@img/sharp-linux-x64/lib"));
      expect(Properties.Architectures).toEqual([shipsSharp ? "x86_64" : "arm64"]);
    }
    expect(functionOf(stateless.pipelineFunctions.variants).Properties.Architectures).toEqual(["x86_64"]);
    expect(functionOf(stateless.keys.generator).Properties.Architectures).toEqual(["arm64"]);
  });

  it("ship pdfkit as files beside the admin API alone, loaded only for the report, rendering Spanish from the asset", () => {
    for (const fn of appFunctions()) {
      expect(existsSync(path.join(assetOf(fn), "node_modules/pdfkit")), fn.node.path).toBe(
        fn === stateless.httpFunctions.admin,
      );
    }
    const asset = assetOf(stateless.httpFunctions.admin);
    // What pdfkit requires at run time for Helvetica, through its package's import map.
    const manifest = JSON.parse(readFileSync(path.join(asset, "node_modules/pdfkit/package.json"), "utf8"));
    expect(manifest.imports["#standard-fonts/*"]).toBe("./js/standard-fonts/*.cjs");
    for (const font of ["Helvetica", "HelveticaBold"]) {
      expect(existsSync(path.join(asset, `node_modules/pdfkit/js/standard-fonts/${font}.cjs`))).toBe(true);
    }
    // Not on the cold start's path: the bundle imports it with import(), on the first report only.
    const code = [
      handlerFileOf(stateless.httpFunctions.admin),
      ...readdirSync(path.join(asset, "chunks")).map((file) => `chunks/${file}`),
    ]
      .filter((file) => file.endsWith(".mjs"))
      .map((file) => readFileSync(path.join(asset, file), "utf8"));
    expect(code.some((file) => file.includes('import("pdfkit")'))).toBe(true);
    expect(code.some((file) => /(from|import)\s*"pdfkit"/.test(file))).toBe(false);

    // The asset's own copy, far from the repository's node_modules, as Lambda would load it.
    const copy = mkdtempSync(path.join(tmpdir(), "dorsal-admin-asset-"));
    try {
      cpSync(asset, copy, { recursive: true });
      writeFileSync(
        path.join(copy, "probe.mjs"),
        [
          'const { default: PDFDocument } = await import("pdfkit");',
          "const doc = new PDFDocument();",
          "const chunks = [];",
          "doc.on('data', (chunk) => chunks.push(chunk));",
          "const ended = new Promise((resolve) => doc.on('end', resolve));",
          "doc.font('Helvetica-Bold').text('Estadísticas y Análisis').font('Helvetica').text('Año, señal, ¿qué?');",
          "doc.end();",
          "await ended;",
          "process.stdout.write(Buffer.concat(chunks).subarray(0, 5).toString('latin1'));",
        ].join("\n"),
      );
      const probe = spawnSync(process.execPath, ["probe.mjs"], { cwd: copy, encoding: "utf8" });
      expect(probe.stderr).toBe("");
      expect(probe.stdout).toBe("%PDF-");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("let the sales and codes APIs read originals and write download ZIPs, and nothing else of the buckets", () => {
    for (const fn of [stateless.httpFunctions.sales, stateless.httpFunctions.codes]) {
      // Building a ZIP streams the originals through the function, within API Gateway's 30 s.
      expect(functionOf(fn).Properties).toMatchObject({ Timeout: 29, MemorySize: 1024 });
      const s3Statements = statementsOf(fn.role).filter((st) => [st.Action].flat().some((a) => a.startsWith("s3:")));
      const actionsOn = (pattern: string) =>
        s3Statements.filter((st) => JSON.stringify(st.Resource).includes(pattern)).flatMap((st) => [st.Action].flat());
      expect(actionsOn("/eventos/*")).toEqual(["s3:GetObject"]);
      expect(actionsOn("/descargas/*")).toEqual(["s3:PutObject"]);
      expect(s3Statements).toHaveLength(2);
    }
  });

  it("let the drive API and the unzip function alone read the drive secret, whose sealing key is generated", () => {
    const secretId = stateless.getLogicalId(stateless.driveSecret.node.defaultChild as CfnResource);
    const readers = appFunctions().filter((fn) =>
      statementsOf(fn.role).some(
        (st) =>
          [st.Action].flat().includes("secretsmanager:GetSecretValue") &&
          JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId }),
      ),
    );
    expect(readers).toEqual([stateless.httpFunctions.drive, stateless.unzip]);
    for (const fn of readers) {
      expect((functionOf(fn).Properties.Environment as { Variables: object }).Variables).toMatchObject({
        DRIVE_SECRET_ARN: { Ref: secretId },
      });
    }
    expect(code.toJSON().Resources[secretId].Properties.GenerateSecretString).toMatchObject({
      SecretStringTemplate: JSON.stringify({ clientId: "", clientSecret: "" }),
      GenerateStringKey: "tokenKey",
    });
    // The drive API starts an import by writing its start object beside the uploaded ZIPs, nothing else.
    const s3 = statementsOf(stateless.httpFunctions.drive.role).filter((st) =>
      [st.Action].flat().some((a) => a.startsWith("s3:")),
    );
    expect(s3.flatMap((st) => [st.Action].flat())).toEqual(["s3:PutObject"]);
    expect(JSON.stringify(s3[0]?.Resource)).toContain("/uploads/zips/*");
  });

  it("start changed events' recounts every hour, from the table alone", () => {
    const fn = { "Fn::GetAtt": [logicalId(stateless, stateless.countersRecounter), "Arn"] };
    code.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 hour)",
      Targets: [Match.objectLike({ Arn: fn })],
    });
    const statements = statementsOf(stateless.countersRecounter.role);
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    expect(actions).toContain("dynamodb:UpdateItem");
    // The table, and starting recounts, stalled deletions and stalled face indexing: no photos, no
    // recognition, no pipeline.
    expect(actions.filter((action) => /^(s3|rekognition|sqs):/.test(action))).toEqual([]);
    const starts = statements.filter((statement) => [statement.Action].flat().some((a) => a.startsWith("states:")));
    // One statement (CDK merges them) over the three workflows, and nothing else.
    expect(starts.flatMap((statement) => [statement.Resource].flat())).toHaveLength(3);
    expect(starts).toEqual([
      expect.objectContaining({
        Action: "states:StartExecution",
        Resource: expect.arrayContaining([
          { Ref: deletionMachineId() },
          { Ref: recountMachineId() },
          { Ref: faceIndexingMachineId() },
        ]),
      }),
    ]);
    expect(functionOf(stateless.countersRecounter).Properties.Environment).toMatchObject({
      Variables: {
        DELETION_STATE_MACHINE_ARN: { Ref: deletionMachineId() },
        RECOUNT_STATE_MACHINE_ARN: { Ref: recountMachineId() },
        FACE_INDEXING_STATE_MACHINE_ARN: { Ref: faceIndexingMachineId() },
      },
    });
  });

  it("send the 'avísame' messages every 5 minutes, from the table and SES alone", () => {
    const fn = { "Fn::GetAtt": [logicalId(stateless, stateless.notificationsSweeper), "Arn"] };
    code.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(5 minutes)",
      Targets: [Match.objectLike({ Arn: fn })],
    });
    const actions = statementsOf(stateless.notificationsSweeper.role).flatMap((statement) => [statement.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:Query", "dynamodb:UpdateItem", "ses:SendEmail"]));
    // No photos, recognition, queues, workflows or secrets: it reads subscriptions and counts links.
    expect(actions.filter((action) => /^(s3|rekognition|sqs|states|secretsmanager|lambda):/.test(action))).toEqual([]);
  });

  it("let the admin API read the dashboard's metrics and queue, and clean past download ZIPs, nothing more of them", () => {
    const admin = stateless.httpFunctions.admin;
    const statements = statementsOf(admin.role);
    const actionsOn = (pattern: string) =>
      statements.filter((st) => JSON.stringify(st.Resource).includes(pattern)).flatMap((st) => [st.Action].flat());
    expect(statements.filter((st) => [st.Action].flat().includes("cloudwatch:GetMetricData"))).toHaveLength(1);
    expect(actionsOn("/descargas/*")).toEqual(["s3:DeleteObject"]);
    const queue = stateless.getLogicalId(stateless.pipeline.queue.node.defaultChild as CfnQueue);
    expect(
      statements.filter((st) => JSON.stringify(st.Resource) === JSON.stringify({ "Fn::GetAtt": [queue, "Arn"] })),
    ).toEqual([expect.objectContaining({ Action: "sqs:GetQueueAttributes" })]);
    const variables = (functionOf(admin).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.START_QUEUE_URL).toEqual({ Ref: queue });
    // No other function reads the metrics back: they only write them, as log lines.
    const readers = appFunctions().filter((fn) =>
      statementsOf(fn.role).some((st) => [st.Action].flat().includes("cloudwatch:GetMetricData")),
    );
    expect(readers).toEqual([admin]);
  });

  it("size detect from its measurement, and let record delete the working copy detect read", () => {
    expect(functionOf(stateless.pipelineFunctions.detect).Properties.MemorySize).toBe(512);
    const record = statementsOf(stateless.pipelineFunctions.record.role).filter((st) =>
      [st.Action].flat().some((action) => action.startsWith("s3:")),
    );
    expect(record).toEqual([expect.objectContaining({ Action: "s3:DeleteObject" })]);
    expect(JSON.stringify(record[0]?.Resource)).toContain("/eventos/*");
  });

  it("let exactly the functions that email send through SES, as the mailFrom context value only", () => {
    const senders = [
      stateless.httpFunctions.sales,
      stateless.httpFunctions.codes,
      stateless.httpFunctions.applications,
      stateless.paymentsReconciler,
      stateless.httpFunctions.notifications,
      stateless.notificationsSweeper,
    ];
    for (const fn of appFunctions()) {
      const ses = statementsOf(fn.role).filter((st) => [st.Action].flat().some((action) => action.startsWith("ses:")));
      const variables = (functionOf(fn).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      if (!senders.includes(fn)) {
        expect(ses).toEqual([]);
        expect("MAIL_FROM" in variables).toBe(false);
        continue;
      }
      expect(variables.MAIL_FROM).toBe("Fotos Dorsal <fotos@dorsal.example>");
      expect(ses).toEqual([
        expect.objectContaining({
          Action: "ses:SendEmail",
          Condition: { StringEquals: { "ses:FromAddress": "fotos@dorsal.example" } },
        }),
      ]);
      // The account's SES identities in the stack's region, nothing else of SES.
      expect(JSON.stringify(ses[0]?.Resource)).toMatch(
        /":ses:",\{"Ref":"AWS::Region"\},":",\{"Ref":"AWS::AccountId"\},":identity\/\*"/,
      );
    }
    expect(mailFromContext(new App())).toBeUndefined();
    expect(mailFromContext(new App({ context: { mailFrom: " fotos@org.co " } }))).toEqual({
      value: "fotos@org.co",
      address: "fotos@org.co",
    });
    expect(() => mailFromContext(new App({ context: { mailFrom: "no-es-un-correo" } }))).toThrow(/mailFrom/);
  });

  it("grant Rekognition to the detect task only", () => {
    const withRekognition = appFunctions().filter((fn) =>
      statementsOf(fn.role).some((statement) => [statement.Action].flat().includes("rekognition:DetectText")),
    );
    expect(withRekognition).toEqual([stateless.pipelineFunctions.detect]);
  });

  it("grant selfie search's Rekognition actions on the deployment's face collections only, each to who needs it", () => {
    const collectionActions = (fn: DorsalFunction) =>
      statementsOf(fn.role)
        .filter((st) => [st.Action].flat().some((action) => action.startsWith("rekognition:")))
        .filter((st) => JSON.stringify(st.Resource).includes(":collection/"))
        .map((st) => ({ actions: [st.Action].flat().sort(), resource: JSON.stringify(st.Resource) }));
    const granted = new Map(
      appFunctions()
        .map((fn) => [fn, collectionActions(fn)] as const)
        .filter(([, statements]) => statements.length > 0),
    );
    expect(new Map([...granted].map(([fn, statements]) => [fn, statements.flatMap((st) => st.actions)]))).toEqual(
      new Map([
        [stateless.httpFunctions.events, ["rekognition:DeleteCollection"]],
        [stateless.httpFunctions.faces, ["rekognition:DeleteFaces", "rekognition:SearchFacesByImage"]],
        [
          stateless.pipelineFunctions.detect,
          ["rekognition:CreateCollection", "rekognition:DeleteCollection", "rekognition:IndexFaces"],
        ],
        [stateless.eventDeletionSlice, ["rekognition:DeleteCollection"]],
        [
          stateless.faceIndexingSlice,
          ["rekognition:CreateCollection", "rekognition:DeleteCollection", "rekognition:IndexFaces"],
        ],
      ]),
    );
    for (const statements of granted.values()) {
      // arn:…:rekognition:{region}:{account}:collection/{table}-faces-*: this deployment's collections.
      expect(statements[0]?.resource).toMatch(/:rekognition:.*AWS::Region.*AWS::AccountId.*:collection\/".*-faces-\*"/);
    }
    // The selfie's faces are counted first: DetectFaces (no resource-level permission), not DetectText.
    const faces = statementsOf(stateless.httpFunctions.faces.role).flatMap((st) => [st.Action].flat());
    expect(faces).toContain("rekognition:DetectFaces");
    expect(faces).not.toContain("rekognition:DetectText");
  });
});

const pipelineMachineId = () => stateless.getLogicalId(stateless.pipeline.stateMachine.node.defaultChild as never);
const deletionMachineId = () => stateless.getLogicalId(stateless.eventDeletion.stateMachine.node.defaultChild as never);
const recountMachineId = () => stateless.getLogicalId(stateless.counterRecount.stateMachine.node.defaultChild as never);
const faceIndexingMachineId = () =>
  stateless.getLogicalId(stateless.faceIndexing.stateMachine.node.defaultChild as never);
/** A deployed definition with each function's ARN written as `<its logical id>`. */
const renderedDefinition = (machine: Resource) => {
  const definition = machine.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] };
  const [separator, parts] = definition["Fn::Join"];
  return JSON.parse(
    parts
      .map((part) => (typeof part === "string" ? part : `<${(part as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0]}>`))
      .join(separator),
  ) as unknown;
};
const s3ActionsOn = (fn: DorsalFunction, pattern: string) =>
  statementsOf(fn.role)
    .filter((st) => [st.Action].flat().some((action) => action.startsWith("s3:")))
    .filter((st) => JSON.stringify(st.Resource).includes(pattern))
    .flatMap((st) => [st.Action].flat())
    .sort();

describe("background jobs", () => {
  it.each([
    ["eventDeletion", () => [deletionMachineId(), stateless.eventDeletion, stateless.eventDeletionSlice] as const],
    ["counterRecount", () => [recountMachineId(), stateless.counterRecount, stateless.counterRecountSlice] as const],
    ["faceIndexing", () => [faceIndexingMachineId(), stateless.faceIndexing, stateless.faceIndexingSlice] as const],
  ] as const)(
    "deploy buildJobDefinition of %s, looping over its slice function, which alone it may invoke",
    (job, parts) => {
      const [machineId, workflow, slice] = parts();
      const machine = code.toJSON().Resources[machineId] as Resource;
      const sliceId = logicalId(stateless, slice);
      expect(renderedDefinition(machine)).toEqual(buildJobDefinition(job, `<${sliceId}>`));
      expect(machine.Properties).toMatchObject({
        StateMachineType: "STANDARD",
        TracingConfiguration: { Enabled: true },
      });
      const invoke = statementsOf(workflow.stateMachine.role).filter((st) => st.Action === "lambda:InvokeFunction");
      expect(invoke).toEqual([expect.objectContaining({ Resource: { "Fn::GetAtt": [sliceId, "Arn"] } })]);
      // Twice the slice it works for.
      expect(functionOf(slice).Properties.Timeout).toBe((jobSliceMs.lambda * 2) / 1000);
    },
  );

  it("let the recount slice touch the table only", () => {
    const actions = statementsOf(stateless.counterRecountSlice.role).flatMap((statement) => [statement.Action].flat());
    expect(actions).toContain("dynamodb:Query");
    expect(actions.filter((action) => /^(s3|rekognition|sqs|states):/.test(action))).toEqual([]);
  });

  it("let the deletion slice delete an event's objects and ZIPs", () => {
    const slice = stateless.eventDeletionSlice;
    expect(s3ActionsOn(slice, "/eventos/*")).toEqual(["s3:DeleteObject"]);
    // One statement (CDK merges them) over the photos of both buckets.
    const photoDeletes = statementsOf(slice.role).filter((st) => JSON.stringify(st.Resource).includes("/eventos/*"));
    expect(JSON.stringify(photoDeletes).match(/\/eventos\/\*/g)).toHaveLength(2);
    expect(s3ActionsOn(slice, "uploads/zips/*")).toEqual(["s3:DeleteObject"]);
    expect(statementsOf(slice.role).some((st) => [st.Action].flat().includes("s3:ListBucket"))).toBe(true);
  });

  it("lets the events API start deletions and selfie search's indexing, and touch no stored file itself", () => {
    const events = stateless.httpFunctions.events;
    const variables = (functionOf(events).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.DELETION_STATE_MACHINE_ARN).toEqual({ Ref: deletionMachineId() });
    expect(variables.FACE_INDEXING_STATE_MACHINE_ARN).toEqual({ Ref: faceIndexingMachineId() });
    const statements = statementsOf(events.role);
    expect(statements.filter((st) => [st.Action].flat().some((a) => a.startsWith("s3:")))).toEqual([]);
    expect(statements.filter((st) => [st.Action].flat().some((a) => a.startsWith("states:")))).toEqual([
      expect.objectContaining({
        Action: "states:StartExecution",
        Resource: [{ Ref: deletionMachineId() }, { Ref: faceIndexingMachineId() }],
      }),
    ]);
  });
});

describe("pipeline", () => {
  it("deploys buildPipelineDefinition with each task's function ARN", () => {
    expect(Object.keys(code.findResources("AWS::StepFunctions::StateMachine")).sort()).toEqual(
      [pipelineMachineId(), deletionMachineId(), recountMachineId(), faceIndexingMachineId()].sort(),
    );
    const machine = code.toJSON().Resources[pipelineMachineId()] as Resource;
    const expected = buildPipelineDefinition((task) => `<${logicalId(stateless, stateless.pipelineFunctions[task])}>`);
    expect(renderedDefinition(machine)).toEqual(expected);
    expect(machine.Properties).toMatchObject({
      StateMachineType: "STANDARD",
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: { Level: "ALL", IncludeExecutionData: true },
    });
  });

  it("lets the state machine invoke exactly the task functions", () => {
    const invoke = statementsOf(stateless.pipeline.stateMachine.role).find(
      (st) => st.Action === "lambda:InvokeFunction",
    );
    const arns = pipelineTasks.map((task) => ({
      "Fn::GetAtt": [logicalId(stateless, stateless.pipelineFunctions[task]), "Arn"],
    }));
    expect(invoke?.Resource).toEqual(expect.arrayContaining(arns));
    expect(invoke?.Resource).toHaveLength(arns.length);
  });

  it("queues originals' object-created events (eventos/) with a dead-letter queue", () => {
    const queueId = stateless.getLogicalId(stateless.pipeline.queue.node.defaultChild as never);
    const deadLettersId = stateless.getLogicalId(stateless.pipeline.deadLetterQueue.node.defaultChild as never);
    code.hasResourceProperties("Custom::S3BucketNotifications", {
      BucketName: { "Fn::ImportValue": stateful.exportNames.originalsBucketName },
      NotificationConfiguration: {
        QueueConfigurations: [
          {
            Events: ["s3:ObjectCreated:*"],
            Filter: { Key: { FilterRules: [{ Name: "prefix", Value: "eventos/" }] } },
            QueueArn: { "Fn::GetAtt": [queueId, "Arn"] },
          },
        ],
      },
    });
    code.hasResourceProperties("AWS::SQS::Queue", {
      RedrivePolicy: { deadLetterTargetArn: { "Fn::GetAtt": [deadLettersId, "Arn"] }, maxReceiveCount: 5 },
    });
    for (const id of [queueId, deadLettersId]) {
      code.hasResourceProperties("AWS::SQS::QueuePolicy", {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
          ]),
        },
      });
    }
  });

  it("sends uploaded ZIPs (uploads/zips/) straight to the unzip function, 15 minutes, retried twice", () => {
    const unzipId = logicalId(stateless, stateless.unzip);
    code.hasResourceProperties("Custom::S3BucketNotifications", {
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ["s3:ObjectCreated:*"],
            Filter: { Key: { FilterRules: [{ Name: "prefix", Value: capacity.lifecycle.zipPrefix }] } },
            LambdaFunctionArn: { "Fn::GetAtt": [unzipId, "Arn"] },
          },
        ],
      },
    });
    code.hasResourceProperties("AWS::Lambda::EventInvokeConfig", {
      FunctionName: { Ref: unzipId },
      MaximumRetryAttempts: 2,
    });
    expect(functionOf(stateless.unzip).Properties).toMatchObject({ Timeout: 900, MemorySize: 1024 });
    // Reads the ZIP, writes photos; no StartExecution: each photo's own event starts its pipeline.
    const statements = statementsOf(stateless.unzip.role);
    const actionsOn = (pattern: string) =>
      statements
        .filter((st) => JSON.stringify(st.Resource).includes(pattern))
        .flatMap((st) => [st.Action].flat())
        .sort();
    expect(actionsOn("uploads/zips/*")).toEqual(["s3:DeleteObject", "s3:GetObject"]);
    expect(actionsOn("eventos/*")).toEqual(["s3:GetObject", "s3:PutObject"]);
    expect(statements.some((st) => [st.Action].flat().includes("states:StartExecution"))).toBe(false);
  });

  it("feeds the queue to the starter with partial batch responses, which may start executions", () => {
    code.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      EventSourceArn: {
        "Fn::GetAtt": [stateless.getLogicalId(stateless.pipeline.queue.node.defaultChild as never), "Arn"],
      },
      FunctionName: { Ref: logicalId(stateless, stateless.starter) },
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    code.hasResourceProperties("AWS::IAM::Policy", {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: "states:StartExecution",
            Resource: { Ref: stateless.getLogicalId(stateless.pipeline.stateMachine.node.defaultChild as never) },
          }),
        ]),
      },
      Roles: [{ Ref: stateless.getLogicalId(stateless.starter.role.node.defaultChild as never) }],
    });
  });
});

describe("capacity (docs/capacity.md)", () => {
  it("reserves concurrency for detect (sized to Rekognition's TPS) and variants, and nothing else", () => {
    expect(functionOf(stateless.pipelineFunctions.detect).Properties.ReservedConcurrentExecutions).toBe(25);
    expect(functionOf(stateless.pipelineFunctions.variants).Properties.ReservedConcurrentExecutions).toBe(60);
    // 25 invocations, each holding its slot ≥ 0.33 + 0.17 s with one call of each operation: ≤ 50 calls/s per operation.
    expect(capacity.detectReservedConcurrency / (0.33 + 0.17)).toBeLessThanOrEqual(capacity.rekognitionTps);
    const reserved = Object.values(code.findResources("AWS::Lambda::Function"))
      .map((fn) => fn.Properties.ReservedConcurrentExecutions as number | undefined)
      .filter((n) => n !== undefined);
    expect(reserved.reduce((a, b) => a + b, 0)).toBe(reservedConcurrencyTotal);
    // Lambda keeps 100 of the account's 1000 default unreserved; Dorsal takes well under half the rest.
    expect(reservedConcurrencyTotal).toBeLessThanOrEqual(450);
  });

  it("feeds the starter in batches of 10, a 1 s window and at most 5 concurrent invocations", () => {
    code.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: logicalId(stateless, stateless.starter) },
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it("gives the queue a visibility timeout of six starter timeouts plus the window, and 5 receives", () => {
    const starterTimeout = functionOf(stateless.starter).Properties.Timeout as number;
    expect(starterTimeout).toBe(30);
    code.hasResourceProperties("AWS::SQS::Queue", {
      VisibilityTimeout: 6 * starterTimeout + 1,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }),
    });
  });

  it("alarms on any dead letter and any failed execution, through one SNS topic", () => {
    const topic = { Ref: stateless.getLogicalId(stateless.alarms.topic.node.defaultChild as never) };
    const alarms = Object.values(code.findResources("AWS::CloudWatch::Alarm")).map((a) => a.Properties);
    const deadLetters = alarms.find((a) => a.MetricName === "ApproximateNumberOfMessagesVisible");
    expect(deadLetters).toMatchObject({
      Namespace: "AWS/SQS",
      Dimensions: [
        {
          Name: "QueueName",
          Value: {
            "Fn::GetAtt": [
              stateless.getLogicalId(stateless.pipeline.deadLetterQueue.node.defaultChild as never),
              "QueueName",
            ],
          },
        },
      ],
      ComparisonOperator: "GreaterThanThreshold",
      Threshold: 0,
      AlarmActions: [topic],
    });
    const failed = alarms.find((a) => a.MetricName === "ExecutionsFailed");
    expect(failed).toMatchObject({
      Namespace: "AWS/States",
      Dimensions: [
        {
          Name: "StateMachineArn",
          Value: { Ref: stateless.getLogicalId(stateless.pipeline.stateMachine.node.defaultChild as never) },
        },
      ],
      Statistic: "Sum",
      ComparisonOperator: "GreaterThanThreshold",
      Threshold: 0,
      AlarmActions: [topic],
    });
    // No alarmEmail in the context: a topic, no subscription.
    code.resourceCountIs("AWS::SNS::Subscription", 0);
  });

  it("alarms on any photo recorded as failed, failed ZIP import, API 5xx, and any function's errors or throttles", () => {
    const topic = { Ref: stateless.getLogicalId(stateless.alarms.topic.node.defaultChild as never) };
    const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
      stateless.getLogicalId(construct.node.defaultChild as never);
    const alarms = Object.values(code.findResources("AWS::CloudWatch::Alarm")).map((a) => a.Properties);

    // The fail task's executions succeed: its log line is what counts a failed photo.
    code.hasResourceProperties("AWS::Logs::MetricFilter", {
      LogGroupName: { Ref: logicalId(stateless.pipelineFunctions.fail.logGroup) },
      FilterPattern: '{ $.message = "photo failed" }',
      MetricTransformations: [{ MetricNamespace: "Dorsal", MetricName: "FailedPhotos", MetricValue: "1" }],
    });
    expect(alarms.find((a) => a.MetricName === "FailedPhotos")).toMatchObject({
      Namespace: "Dorsal",
      Statistic: "Sum",
      Threshold: 0,
      AlarmActions: [topic],
    });

    // A ZIP import out of retries lands in its own queue, which alarms.
    code.hasResourceProperties("AWS::Lambda::EventInvokeConfig", {
      FunctionName: { Ref: logicalId(stateless.unzip.fn) },
      MaximumRetryAttempts: 2,
      DestinationConfig: {
        OnFailure: { Destination: { "Fn::GetAtt": [logicalId(stateless.pipeline.unzipFailures), "Arn"] } },
      },
    });
    const queueAlarms = alarms.filter((a) => a.MetricName === "ApproximateNumberOfMessagesVisible");
    expect(queueAlarms.map((a) => a.Dimensions[0].Value["Fn::GetAtt"][0]).sort()).toEqual(
      [logicalId(stateless.pipeline.deadLetterQueue), logicalId(stateless.pipeline.unzipFailures)].sort(),
    );

    expect(alarms.find((a) => a.MetricName === "5xx")).toMatchObject({
      Namespace: "AWS/ApiGateway",
      Dimensions: [{ Name: "ApiId", Value: { Ref: logicalId(stateless.api) } }],
      Statistic: "Sum",
      Threshold: 0,
      AlarmActions: [topic],
    });

    // Every function of the app, HTTP and pipeline and schedules alike: errors + throttles > 0.
    // The bootstrap runs once per deploy, behind the provider framework that reports its errors.
    const functions = appFunctions().filter((fn) => fn !== stateless.admin.bootstrapper);
    const watched = alarms
      .filter((a) => a.Metrics?.some((m: { Expression?: string }) => m.Expression === "errors + throttles"))
      .map((a) => {
        expect(a).toMatchObject({ Threshold: 0, ComparisonOperator: "GreaterThanThreshold", AlarmActions: [topic] });
        const names = a.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).map(
          (m: { MetricStat: { Metric: { MetricName: string; Dimensions: { Value: { Ref: string } }[] } } }) =>
            `${m.MetricStat.Metric.MetricName} ${m.MetricStat.Metric.Dimensions[0]?.Value.Ref}`,
        );
        return names.sort().join(", ");
      });
    expect(watched.sort()).toEqual(
      functions.map(({ fn }) => `Errors ${logicalId(fn)}, Throttles ${logicalId(fn)}`).sort(),
    );
  });

  it("alarms when the p95 of arrival → searchable passes the SLA over 5 minutes, from the metric record writes", () => {
    const alarm = Object.values(code.findResources("AWS::CloudWatch::Alarm")).find((resource) =>
      JSON.stringify(resource.Properties.Metrics ?? []).includes('"Stage","Value":"searchable"'),
    );
    expect(alarm?.Properties).toMatchObject({
      Threshold: slaRule.warningMs,
      ComparisonOperator: "GreaterThanThreshold",
      TreatMissingData: "notBreaching",
      AlarmActions: [{ Ref: expect.any(String) }],
    });
    const metrics = alarm?.Properties.Metrics as {
      Expression?: string;
      MetricStat?: { Stat: string; Metric: object };
    }[];
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe(
      `IF(photos >= ${slaRule.minimumPhotos}, p95, 0)`,
    );
    expect(metrics.flatMap((metric) => metric.MetricStat?.Stat ?? []).sort()).toEqual(["SampleCount", "p95"]);
    expect(JSON.stringify(metrics)).toContain(`"Namespace":"Dorsal/${stateless.stackName}"`);
  });

  it("subscribes the alarmEmail context value to the topic", () => {
    // The Alarms construct alone, over a stand-in queue and state machine: no second full synth.
    const stack = new Stack(new App({ context: { alarmEmail: " Ops@Org.co " } }), "AlarmsOnly");
    const pipeline = {
      deadLetterQueue: new Queue(stack, "DeadLetters"),
      unzipFailures: new Queue(stack, "UnzipFailures"),
      stateMachine: new StateMachine(stack, "Machine", {
        definitionBody: DefinitionBody.fromChainable(new Pass(stack, "Pass")),
      }),
    } as unknown as Pipeline;
    new Alarms(stack, "Alarms", {
      pipeline,
      failTask: { logGroup: new LogGroup(stack, "FailLogs") } as DorsalFunction,
      functions: {},
      api: new HttpApi(stack, "Api"),
      metricsNamespace: "Dorsal/AlarmsOnly",
      email: alarmEmailFrom(stack),
    });
    Template.fromStack(stack).hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "email",
      Endpoint: "ops@org.co",
    });
    expect(() => alarmEmailFrom(new App({ context: { alarmEmail: "not-an-email" } }))).toThrow(/alarmEmail/);
  });

  it("retries throttles with many jittered attempts before the generic retrier", () => {
    const definition = buildPipelineDefinition((task) => task);
    const states = taskStates(definition, (resource) => pipelineTasks.find((task) => task === resource));
    // Every step, in the branches of the Parallel state as well as on the HEIC path.
    expect(states.map((state) => state.task).sort()).toEqual(
      ["prepare", "variants", "variants", "detect", "detect", "record", "fail"].sort(),
    );
    for (const { state } of states) {
      const retriers = state.Retry ?? [];
      const throttles = retriers.findIndex((r) => r.ErrorEquals.includes("Lambda.TooManyRequestsException"));
      const generic = retriers.findIndex((r) => r.ErrorEquals.includes("States.TaskFailed"));
      expect(retriers[throttles]).toEqual(throttleRetry);
      expect(throttles).toBeLessThan(generic);
    }
    expect(throttleRetry).toMatchObject({ JitterStrategy: "FULL", MaxAttempts: 30, MaxDelaySeconds: 30 });
    expect(throttleRetry.ErrorEquals).toEqual(
      expect.arrayContaining(["ThrottlingException", "ProvisionedThroughputExceededException"]),
    );
  });
});

describe("CloudFront", () => {
  const distribution = () =>
    Object.values(code.findResources("AWS::CloudFront::Distribution"))[0]?.Properties.DistributionConfig;
  const keyGroup = () => ({ Ref: stateless.getLogicalId(stateless.keys.keyGroup.node.defaultChild as never) });

  it("proxies /api/* uncached with all methods and viewer headers but Host", () => {
    expect(distribution().CacheBehaviors[0]).toMatchObject({
      PathPattern: "/api/*",
      AllowedMethods: ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"],
      CachePolicyId: "4135ea2d-6df8-44a3-9df3-4b5a84be39ad", // Managed-CachingDisabled
      OriginRequestPolicyId: "b689b0a8-53d0-40ab-baf2-68738e2966ac", // Managed-AllViewerExceptHostHeader
    });
  });

  it("serves originals, then the other photo paths, then download ZIPs, only through signed URLs", () => {
    const [, originals, derived, zips] = distribution().CacheBehaviors;
    expect(originals).toMatchObject({ PathPattern: "eventos/*/originales/*", TrustedKeyGroups: [keyGroup()] });
    expect(derived).toMatchObject({ PathPattern: "eventos/*", TrustedKeyGroups: [keyGroup()] });
    // From the originals' own origin, with their attachment headers.
    expect(zips).toMatchObject({
      PathPattern: "descargas/*",
      TrustedKeyGroups: [keyGroup()],
      TargetOriginId: originals.TargetOriginId,
      ResponseHeadersPolicyId: originals.ResponseHeadersPolicyId,
    });
    const origins = distribution().Origins as { Id: string; DomainName: unknown }[];
    const domainOf = (id: string) => JSON.stringify(origins.find((o) => o.Id === id)?.DomainName);
    expect(domainOf(originals.TargetOriginId)).toContain(stateful.exportNames.originalsBucketName);
    expect(domainOf(derived.TargetOriginId)).toContain(stateful.exportNames.derivedBucketName);
  });

  it("serves stored files as inert data, originals as attachments, and the app with the local runtime's headers", () => {
    const [, originals, derived] = distribution().CacheBehaviors;
    const policy = (behaviour: { ResponseHeadersPolicyId: { Ref: string } }) =>
      code.toJSON().Resources[behaviour.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig;
    for (const behaviour of [originals, derived]) {
      expect(policy(behaviour).SecurityHeadersConfig).toMatchObject({
        ContentSecurityPolicy: { ContentSecurityPolicy: storedFileContentSecurityPolicy, Override: true },
        ContentTypeOptions: { Override: true },
      });
    }
    expect(policy(originals).CustomHeadersConfig.Items).toEqual([
      { Header: "Content-Disposition", Value: "attachment", Override: true },
    ]);
    expect(policy(derived).CustomHeadersConfig).toBeUndefined();
    expect(policy(distribution().DefaultCacheBehavior).SecurityHeadersConfig.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: appContentSecurityPolicy(["https://*.amazonaws.com"]),
      Override: true,
    });
  });

  it("serves the site from the frontend bucket, routing client-side paths to index.html", () => {
    const behaviour = distribution().DefaultCacheBehavior;
    expect(behaviour.TrustedKeyGroups).toBeUndefined();
    expect(behaviour.FunctionAssociations).toEqual([expect.objectContaining({ EventType: "viewer-request" })]);
    expect(behaviour.ResponseHeadersPolicyId).toBeDefined();
  });

  it("trusts a public key generated in the account, never one from the template", () => {
    code.hasResourceProperties("AWS::CloudFront::PublicKey", {
      PublicKeyConfig: {
        EncodedKey: {
          "Fn::GetAtt": [
            stateless.getLogicalId(stateless.keys.node.findChild("Keys").node.defaultChild as never),
            "PublicKeyPem",
          ],
        },
      },
    });
    expect(JSON.stringify(code.toJSON())).not.toMatch(/PRIVATE KEY|BEGIN PUBLIC KEY/);
  });
});

describe("abuse limits (docs/security.md)", () => {
  const acl = () => Object.values(code.findResources("AWS::WAFv2::WebACL"))[0]?.Properties;
  const ruleNamed = (name: string) => (acl().Rules as { Name: string }[]).find((rule) => rule.Name === name) as never;
  const originVerifyValue = () => stateless.resolve(stateless.originVerify.secretValue.unsafeUnwrap());

  it("puts a CloudFront web ACL in front of the site: rate limits per address, then AWS's managed rules", () => {
    code.resourceCountIs("AWS::WAFv2::WebACL", 1);
    expect(acl()).toMatchObject({ Scope: "CLOUDFRONT", DefaultAction: { Allow: {} } });
    expect((acl().Rules as { Name: string }[]).map((rule) => rule.Name)).toEqual([
      "AWSManagedRulesAmazonIpReputationList",
      "IntentosPorDireccion",
      "ApiPorDireccion",
      "AWSManagedRulesKnownBadInputsRuleSet",
      "AWSManagedRulesCommonRuleSet",
    ]);
    const tooMany = { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: "tooMany" } } };
    expect(ruleNamed("ApiPorDireccion")).toMatchObject({
      Action: tooMany,
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: "IP",
          Limit: perAddressLimits.apiPerAddress,
          EvaluationWindowSec: 60,
        },
      },
    });
    // Every /api/ request but the uploads', which a photographer sends by the hundred a minute.
    const prefix = (path: string) => ({
      ByteMatchStatement: expect.objectContaining({ SearchString: path, PositionalConstraint: "STARTS_WITH" }),
    });
    expect(ruleNamed("ApiPorDireccion")).toMatchObject({
      Statement: {
        RateBasedStatement: {
          ScopeDownStatement: {
            AndStatement: {
              Statements: [
                prefix("/api/"),
                {
                  NotStatement: {
                    Statement: { OrStatement: { Statements: expect.arrayContaining([prefix("/api/photos/upload")]) } },
                  },
                },
              ],
            },
          },
        },
      },
    });
    const secrets = ruleNamed("IntentosPorDireccion") as { Statement: { RateBasedStatement: Record<string, never> } };
    expect(secrets).toMatchObject({ Action: tooMany });
    expect(secrets.Statement.RateBasedStatement.Limit).toBe(perAddressLimits.secretsPerAddress);
    expect(JSON.stringify(secrets.Statement.RateBasedStatement.ScopeDownStatement)).toContain("/api/auth/login");
    expect(JSON.parse(acl().CustomResponseBodies.tooMany.Content)).toEqual({
      success: false,
      error: expect.stringMatching(/^Demasiadas solicitudes/),
    });
    // A photo upload is a multipart body far over the common rule set's 8 KB: counted, never blocked.
    expect(ruleNamed("AWSManagedRulesCommonRuleSet")).toMatchObject({
      Statement: {
        ManagedRuleGroupStatement: {
          RuleActionOverrides: expect.arrayContaining([{ Name: "SizeRestrictions_BODY", ActionToUse: { Count: {} } }]),
        },
      },
    });
    const distribution = Object.values(code.findResources("AWS::CloudFront::Distribution"))[0]?.Properties;
    expect(distribution.DistributionConfig.WebACLId).toEqual({
      "Fn::GetAtt": [stateless.getLogicalId(stateless.webAcl.acl), "Arn"],
    });
  });

  it("has CloudFront prove each API request came through it, and only the HTTP functions check", () => {
    const distribution = Object.values(code.findResources("AWS::CloudFront::Distribution"))[0]?.Properties;
    const apiOrigin = (distribution.DistributionConfig.Origins as Record<string, unknown>[]).find(
      (origin) => "CustomOriginConfig" in origin,
    );
    expect(apiOrigin?.OriginCustomHeaders).toEqual([
      { HeaderName: originVerifyHeader, HeaderValue: originVerifyValue() },
    ]);
    // A dynamic reference: the value itself is in no template.
    expect(JSON.stringify(originVerifyValue())).toContain("{{resolve:secretsmanager:");
    const http = new Set<DorsalFunction>(Object.values(stateless.httpFunctions));
    for (const fn of appFunctions()) {
      const variables = (functionOf(fn).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.ORIGIN_VERIFY_SECRET).toEqual(http.has(fn) ? originVerifyValue() : undefined);
    }
  });

  it("moves the web ACL to its own us-east-1 stack when the site lives in another region", () => {
    const elsewhere = createDorsal(new App({ context }), { account: "123456789012", region: "eu-west-1" });
    expect(elsewhere.edge?.region).toBe("us-east-1");
    expect(elsewhere.stateless.webAcl).toBe(elsewhere.edge?.webAcl);
    expect(elsewhere.stateless.node.tryFindChild("WebAcl")).toBeUndefined();
    expect(createDorsal(new App({ context }), { account: "123456789012", region: "us-east-1" }).edge).toBeUndefined();
  });
});

describe("custom resources", () => {
  const custom = () => [
    { type: "Custom::DorsalSigningKeys", provider: stateless.keys.provider, onEvent: stateless.keys.generator },
    { type: "Custom::DorsalAdminBootstrap", provider: stateless.admin.provider, onEvent: stateless.admin.bootstrapper },
  ];
  const ref = (construct: IConstruct) => stateless.getLogicalId(construct.node.defaultChild as never);

  it("are answered by CDK's provider framework, which invokes our function", () => {
    for (const { type, provider, onEvent } of custom()) {
      const framework = provider.provider.node.findChild("framework-onEvent");
      const [resource] = Object.values(code.findResources(type));
      expect(resource?.Properties.ServiceToken).toEqual({ "Fn::GetAtt": [ref(framework), "Arn"] });
      const fn = code.toJSON().Resources[ref(framework)] as Resource;
      expect(fn.Properties.Environment).toEqual({
        Variables: { USER_ON_EVENT_FUNCTION_ARN: { "Fn::GetAtt": [logicalId(stateless, onEvent), "Arn"] } },
      });
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogGroup: { Ref: ref(provider.logGroup) } });
    }
  });

  it("give the framework function a role of ours: its log group and our function, no managed policy", () => {
    for (const { provider, onEvent } of custom()) {
      const role = code.toJSON().Resources[ref(provider.role)] as Resource;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const fnArn = { "Fn::GetAtt": [logicalId(stateless, onEvent), "Arn"] };
      expect(statementsOf(provider.role)).toEqual([
        expect.objectContaining({
          Action: ["logs:CreateLogStream", "logs:PutLogEvents"],
          Resource: { "Fn::GetAtt": [ref(provider.logGroup), "Arn"] },
        }),
        expect.objectContaining({
          Action: "lambda:InvokeFunction",
          Resource: [fnArn, { "Fn::Join": ["", [fnArn, ":*"]] }],
        }),
        expect.objectContaining({ Action: "lambda:GetFunction", Resource: fnArn }),
      ]);
      expect(code.toJSON().Resources[ref(provider.logGroup)].Properties.RetentionInDays).toBe(30);
    }
  });
});

describe("cdk-nag", () => {
  it("reports no finding that is neither fixed nor acknowledged", () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });

  it("leaves no CDK errors or warnings", () => {
    for (const stack of [stateful, stateless]) {
      expect(Annotations.fromStack(stack).findError("*", Match.anyValue())).toEqual([]);
      expect(Annotations.fromStack(stack).findWarning("*", Match.anyValue())).toEqual([]);
    }
  });
});
