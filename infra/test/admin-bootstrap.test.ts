import { readFileSync } from "node:fs";
import path from "node:path";
import { App } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { beforeAll, describe, expect, it } from "vitest";
import { adminEmailFrom, defaultAdminEmail } from "../lib/admin-bootstrap";
import { createDorsal, repoRoot } from "../lib/dorsal-app";
import type { DorsalFunction } from "../lib/dorsal-function";

type Statement = { Action: string | string[]; Effect: string; Resource: unknown };
type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };

// The app as `npx cdk deploy --all -c adminEmail=Ops@Org.co -c reservedConcurrency=false
// -c domainName=… -c certificateArn=…` builds it (dorsal.test.ts synthesizes it without them).
const context = JSON.parse(readFileSync(path.join(repoRoot, "cdk.json"), "utf8")).context;
const certificateArn = "arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
const app = new App({
  context: {
    ...context,
    adminEmail: "Ops@Org.co",
    reservedConcurrency: "false",
    domainName: "Fotos.MiCarrera.co",
    certificateArn,
  },
});
const { stateful, stateless } = createDorsal(app);
let template: Template;

beforeAll(() => {
  app.synth();
  template = Template.fromStack(stateless);
});

const id = (construct: IConstruct) => stateless.getLogicalId(construct.node.defaultChild as never);
const resources = () => template.toJSON().Resources as Record<string, Resource>;
const functionOf = (fn: DorsalFunction) => resources()[id(fn.fn)] as Resource;
const variablesOf = (fn: DorsalFunction) =>
  (functionOf(fn).Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const secretRef = () => ({ Ref: id(stateless.admin.secret) });

describe("first admin", () => {
  it("gets its credentials from a secret Secrets Manager generates, with the context's email", () => {
    template.hasResourceProperties("AWS::SecretsManager::Secret", {
      GenerateSecretString: {
        SecretStringTemplate: JSON.stringify({ email: "ops@org.co" }),
        GenerateStringKey: "password",
        PasswordLength: 24,
        ExcludePunctuation: true,
        ExcludeCharacters: "0O1lI",
        IncludeSpace: false,
      },
    });
    // Generated in the account: no password in the template.
    expect(JSON.stringify(resources()[id(stateless.admin.secret)])).not.toMatch(/"password"\s*:/);
  });

  it("is created by a custom resource whose provider framework calls the bootstrap function, updated when the secret changes", () => {
    const custom = Object.values(resources()).filter((r) => r.Type === "Custom::DorsalAdminBootstrap");
    expect(custom).toHaveLength(1);
    const framework = stateless.admin.provider.provider.node.findChild("framework-onEvent") as IConstruct;
    expect(custom[0]?.Properties).toEqual({
      ServiceToken: { "Fn::GetAtt": [id(framework), "Arn"] },
      AdminSecretArn: secretRef(),
    });
    // CDK's framework function answers CloudFormation; it invokes ours and nothing else.
    const frameworkFunction = resources()[id(framework)] as Resource;
    expect(frameworkFunction.Properties.Environment).toEqual({
      Variables: { USER_ON_EVENT_FUNCTION_ARN: { "Fn::GetAtt": [id(stateless.admin.bootstrapper.fn), "Arn"] } },
    });
    expect(frameworkFunction.Properties.Role).toEqual({
      "Fn::GetAtt": [id(stateless.admin.provider.role), "Arn"],
    });
  });

  it("runs functions/src/handlers/admin-bootstrap.ts with the HTTP functions' configuration plus the secret's ARN", () => {
    const { ADMIN_SECRET_ARN, ...rest } = variablesOf(stateless.admin.bootstrapper);
    expect(ADMIN_SECRET_ARN).toEqual(secretRef());
    // Those of a function that verifies sessions but never signs them, less what only requests carry.
    const { ORIGIN_VERIFY_SECRET, ...http } = variablesOf(stateless.httpFunctions.users);
    expect(ORIGIN_VERIFY_SECRET).toBeDefined();
    expect(rest).toEqual(http);
    expect(rest).toMatchObject({
      DORSAL_RUNTIME: "aws",
      TABLE_NAME: { "Fn::ImportValue": "DorsalStateful-TableName" },
    });
    expect(functionOf(stateless.admin.bootstrapper).Properties).toMatchObject({ Runtime: "nodejs22.x", Timeout: 60 });
  });

  it("may read its own secret and get/put table items, nothing more", () => {
    const role = { Ref: id(stateless.admin.bootstrapper.role) };
    const statements = Object.values(template.findResources("AWS::IAM::Policy"))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([role]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
    const tableArn = stateless.resolve((stateless.node.findChild("Table") as ITable).tableArn);
    // The table itself, not its indexes (no `/index/*`).
    expect(JSON.stringify(tableArn)).toContain(stateful.exportNames.tableName);
    expect(
      statements.map(({ Action, Effect, Resource }) => ({ Action: [Action].flat().sort(), Effect, Resource })),
    ).toEqual(
      expect.arrayContaining([
        {
          Effect: "Allow",
          Action: ["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
          Resource: secretRef(),
        },
        { Effect: "Allow", Action: ["dynamodb:GetItem", "dynamodb:PutItem"], Resource: tableArn },
      ]),
    );
    // Besides those two: its log group and X-Ray, like every function.
    const others = statements.filter(
      (s) => ![s.Action].flat().some((action) => /^(secretsmanager|dynamodb):/.test(action)),
    );
    expect(others.flatMap((s) => [s.Action].flat()).sort()).toEqual([
      "logs:CreateLogStream",
      "logs:PutLogEvents",
      "xray:PutTelemetryRecords",
      "xray:PutTraceSegments",
    ]);
    expect(statements.filter((s) => [s.Action].flat().some((a) => a.startsWith("secretsmanager:")))).toHaveLength(1);
  });

  it("runs only once the function's grants are in place", () => {
    const policy = id(stateless.admin.bootstrapper.role.node.findChild("DefaultPolicy"));
    expect(functionOf(stateless.admin.bootstrapper).DependsOn).toContain(policy);
  });

  it("names the secret in the AdminCredentialsSecretName output", () => {
    const output = template.toJSON().Outputs.AdminCredentialsSecretName as { Value: unknown };
    expect(JSON.stringify(output.Value)).toContain(JSON.stringify(secretRef()));
  });

  it("passes cdk-nag with the email from the context", () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });
});

describe("adminEmail context", () => {
  it("defaults to an example address and is normalised as login normalises emails", () => {
    expect(adminEmailFrom(new App())).toBe(defaultAdminEmail);
    expect(adminEmailFrom(new App({ context: { adminEmail: " Ops@Org.co " } }))).toBe("ops@org.co");
  });

  it("stops the synth when it is not an email address", () => {
    expect(() => adminEmailFrom(new App({ context: { adminEmail: "ops" } }))).toThrow(/adminEmail/);
  });
});

describe("an account whose Lambda quota cannot hold the pipeline's reservations", () => {
  it("deploys with -c reservedConcurrency=false, where no function reserves concurrency", () => {
    const functions = Object.values(resources()).filter((resource) => resource.Type === "AWS::Lambda::Function");
    expect(functions.length).toBeGreaterThan(15);
    expect(functions.filter((fn) => fn.Properties.ReservedConcurrentExecutions !== undefined)).toEqual([]);
  });
});

describe("a custom domain", () => {
  it("is served with its certificate and TLS 1.2 at least, and named as the site's address", () => {
    template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: {
        Aliases: ["fotos.micarrera.co"],
        ViewerCertificate: {
          AcmCertificateArn: certificateArn,
          MinimumProtocolVersion: "TLSv1.2_2021",
          SslSupportMethod: "sni-only",
        },
      },
    });
    expect(template.toJSON().Outputs.SiteUrl.Value).toBe("https://fotos.micarrera.co");
    expect(template.toJSON().Outputs.DomainTarget.Value).toEqual({
      "Fn::GetAtt": [id(stateless.site.distribution), "DomainName"],
    });
  });

  it("is where buyers come back from the payment page and what photo URLs are signed for", () => {
    expect(variablesOf(stateless.httpFunctions.sales).CLOUDFRONT_DOMAIN).toBe("fotos.micarrera.co");
    expect(variablesOf(stateless.httpFunctions.browse).CLOUDFRONT_DOMAIN).toBe("fotos.micarrera.co");
  });

  it("may upload to the originals bucket from the browser (CORS)", () => {
    Template.fromStack(stateful).hasResourceProperties("AWS::S3::Bucket", {
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedOrigins: ["https://*.cloudfront.net", "https://fotos.micarrera.co"] })],
      },
    });
  });
});
