import { fileURLToPath } from "node:url";
import { type App, type Environment, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { StatefulStack } from "./stateful-stack";
import { StatelessStack } from "./stateless-stack";

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
  const stateless = new StatelessStack(app, "DorsalStateless", {
    env,
    description: "Dorsal: Lambda functions, HTTP API, photo pipeline and CloudFront",
    stateful: stateful.exportNames,
    repoRoot,
  });
  // The stateless stack imports by export name, which CDK cannot see as a dependency.
  stateless.addStackDependency(stateful);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { stateful, stateless };
}
