import { type Acknowledgment, Stack, Validations } from "aws-cdk-lib";
// The function cdk-nag itself uses to name a resource in a finding id, so acknowledgements match.
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference";
import type { IConstruct } from "constructs";

/**
 * Acknowledges cdk-nag's wildcard finding (AwsSolutions-IAM5) for one resource ARN of the
 * construct's policies, given as the same value (tokens and all) that the grant used.
 */
export function acknowledgeWildcardResource(scope: IConstruct, resourceArn: string, reason: string): void {
  const name = flattenCfnReference(Stack.of(scope).resolve(resourceArn));
  Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[Resource::${name}]`, reason });
}

/**
 * Acknowledges findings on a construct that aws-cdk-lib adds at the stack's top level (singleton
 * handlers of its own custom resources), found by the start of its id.
 */
export function acknowledgeCdkSingleton(
  scope: IConstruct,
  idPrefix: string,
  ...acknowledgments: Acknowledgment[]
): void {
  for (const child of Stack.of(scope).node.children) {
    if (child.node.id.startsWith(idPrefix)) Validations.of(child).acknowledge(...acknowledgments);
  }
}
