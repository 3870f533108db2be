import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as s3 from "aws-cdk-lib/aws-s3";
import { AwsSolutionsChecks } from "cdk-nag";
import { afterAll, describe, expect, it } from "vitest";
import { noSiteBuildMessage, Site } from "../lib/site";

// A stand-in for `npm run build`: the shell, a static file, content-hashed assets, the compressed
// copies the local runtime serves and the manifest the bundle budget reads.
const build = mkdtempSync(path.join(tmpdir(), "infra-site-test-"));
const builtFiles = ["index.html", "favicon.svg", "assets/index-1a2b3c.js"];
mkdirSync(path.join(build, "assets"));
mkdirSync(path.join(build, ".vite"));
for (const file of builtFiles)
  for (const copy of [file, `${file}.br`, `${file}.gz`]) writeFileSync(path.join(build, copy), "built");
writeFileSync(path.join(build, ".vite", "manifest.json"), "{}");
afterAll(() => rmSync(build, { recursive: true, force: true }));

function siteStack(siteDir: string) {
  const app = new App();
  const stack = new Stack(app, "SiteTest");
  const bucket = (name: string) => s3.Bucket.fromBucketName(stack, name, `test-${name.toLowerCase()}`);
  new Site(stack, "Site", {
    frontend: bucket("Frontend"),
    originals: bucket("Originals"),
    derived: bucket("Derived"),
    logs: bucket("Logs"),
    apiDomain: "abc123.execute-api.us-east-1.amazonaws.com",
    keyGroup: cloudfront.KeyGroup.fromKeyGroupId(stack, "KeyGroup", "test-key-group"),
    siteDir,
    webAclArn: "arn:aws:wafv2:us-east-1:123456789012:global/webacl/Dorsal/0a1b2c3d",
    originVerify: "test-origin-verify-value-of-forty-eight-characters",
  });
  return { app, stack, template: Template.fromStack(stack) };
}

describe("site deployment", () => {
  const { app, template } = siteStack(build);
  const deployments = () => Object.entries(template.findResources("Custom::CDKBucketDeployment"));

  it("uploads hashed assets cached for a year, never pruned", () => {
    template.hasResourceProperties("Custom::CDKBucketDeployment", {
      DestinationBucketKeyPrefix: "assets/",
      Prune: false,
      SystemMetadata: { "cache-control": "public, max-age=31536000, immutable" },
    });
  });

  it("uploads the rest revalidated on every load, after the assets, and invalidates CloudFront", () => {
    const [assetsId] = deployments().find(([, r]) => r.Properties.DestinationBucketKeyPrefix === "assets/") ?? [];
    const [, shell] = deployments().find(([, r]) => r.Properties.DestinationBucketKeyPrefix === undefined) ?? [];
    expect(shell?.Properties).toMatchObject({
      Prune: true,
      Exclude: ["assets/*"],
      SystemMetadata: { "cache-control": "no-cache" },
      DistributionPaths: ["/*"],
    });
    expect(shell?.DependsOn).toContain(assetsId);
  });

  it("publishes the build itself, without the local runtime's compressed copies or the manifest", () => {
    const assembly = app.synth();
    const staged = readdirSync(assembly.directory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith("asset."))
      .flatMap((entry) =>
        readdirSync(path.join(assembly.directory, entry.name), { recursive: true, encoding: "utf8" }),
      );
    expect(staged).toEqual(expect.arrayContaining(["index.html", "favicon.svg", "index-1a2b3c.js"]));
    expect(staged.filter((file) => /\.(br|gz)$|\.vite/.test(file))).toEqual([]);
  });

  it("compresses as the browser accepts and caches each file as long as its Cache-Control says", () => {
    template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: {
        DefaultCacheBehavior: Match.objectLike({
          Compress: true,
          CachePolicyId: "658327ea-f89d-4fab-a63d-7e88639e58f6", // Managed-CachingOptimized
        }),
      },
    });
  });

  it("keeps cdk-nag satisfied with the deployment in place", () => {
    app.synth();
    expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
  });

  it("refuses to deploy without a build, saying which command makes it", () => {
    const missing = path.join(build, "missing");
    const empty = siteStack(missing);
    empty.template.resourceCountIs("Custom::CDKBucketDeployment", 0);
    Annotations.fromStack(empty.stack).hasError("/SiteTest/Site", noSiteBuildMessage(missing));
    expect(noSiteBuildMessage(missing)).toContain("npm run build");
  });
});
