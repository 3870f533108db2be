import { fileURLToPath } from "node:url";
import { type App, type Environment, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { StatefulStack } from "./stateful-stack";
import { StatelessStack } from "./stateless-stack";
import { EdgeStack } from "./web-acl";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Dorsal on AWS: the stateful stack (table, buckets) and the stateless one (functions, API,
 * pipeline, CDN) that imports its exports, checked against cdk-nag's AWS Solutions rules; any
 * finding not fixed or acknowledged with a reason fails the synth.
 */
export function createDorsal(app: App, env?: Environment) {
  const stateful = new StatefulStack(app, "DorsalStateful", {
    env,
    description: "Dorsal: DynamoDB table and S3 buckets (retained on delete)",
  });
  // CloudFront's web ACL must live in us-east-1: elsewhere it gets a stack of its own there. (A synth
  // without a region, as in the tests, keeps it in the stateless stack; a deploy always has one.)
  const edge =
    env?.region && env.region !== "us-east-1"
      ? new EdgeStack(app, "DorsalEdge", {
          env: { account: env.account, region: "us-east-1" },
          description: "Dorsal: the web ACL in front of CloudFront (us-east-1, where CloudFront reads it)",
          crossRegionReferences: true,
        })
      : undefined;
  const stateless = new StatelessStack(app, "DorsalStateless", {
    env,
    description: "Dorsal: Lambda functions, HTTP API, photo pipeline and CloudFront",
    stateful: stateful.exportNames,
    repoRoot,
    ...(edge ? { webAcl: edge.webAcl, crossRegionReferences: true } : {}),
  });
  // The stateless stack imports by export name, which CDK cannot see as a dependency.
  stateless.addStackDependency(stateful);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { stateful, stateless, edge };
}
