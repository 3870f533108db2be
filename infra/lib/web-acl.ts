import { Stack, type StackProps } from "aws-cdk-lib";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import { perAddressLimits, secretPaths, tooManyRequestsBody, uploadPaths } from "../../functions/src/http/abuse-limits";

/**
 * AWS managed rules that the product's own requests would trip: photo uploads are multipart
 * bodies far over the common rule set's 8 KB body limit, and a JPEG's bytes can look like
 * anything to a cross-site-scripting pattern. They count instead of block.
 */
const countedCommonRules = ["SizeRestrictions_BODY", "CrossSiteScripting_BODY", "GenericLFI_BODY"];

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

const startsWith = (path: string): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: "STARTS_WITH",
    searchString: path,
    textTransformations: [{ priority: 0, type: "NONE" }],
  },
});

const managed = (priority: number, name: string, countRules: readonly string[] = []): wafv2.CfnWebACL.RuleProperty => ({
  name,
  priority,
  overrideAction: { none: {} },
  statement: {
    managedRuleGroupStatement: {
      vendorName: "AWS",
      name,
      ruleActionOverrides: countRules.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
    },
  },
  visibilityConfig: visibility(name),
});

/**
 * 429 with the Spanish message. No Retry-After: WAF prefixes every custom response header with
 * `x-amzn-waf-`, so the message says how long instead.
 */
const tooMany: wafv2.CfnWebACL.RuleActionProperty = {
  block: { customResponse: { responseCode: 429, customResponseBodyKey: "tooMany" } },
};

/**
 * The web ACL in front of the CloudFront distribution (scope CLOUDFRONT, so it must live in
 * us-east-1): a rate rule per client address on the API and a stricter one where secrets are
 * tried, answered 429 with a Spanish message; AWS's IP reputation list, known bad
 * inputs and common rule set. The HTTP API itself cannot carry a web ACL (WAF does not attach to
 * HTTP APIs), so the functions refuse any request that did not come through the distribution
 * (ORIGIN_VERIFY_SECRET).
 */
export class WebAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const rate = (
      priority: number,
      name: string,
      limit: number,
      scopeDown: wafv2.CfnWebACL.StatementProperty,
    ): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority,
      action: tooMany,
      statement: {
        rateBasedStatement: {
          aggregateKeyType: "IP",
          limit,
          evaluationWindowSec: perAddressLimits.windowSeconds,
          scopeDownStatement: scopeDown,
        },
      },
      visibilityConfig: visibility(name),
    });
    this.acl = new wafv2.CfnWebACL(this, "Acl", {
      scope: "CLOUDFRONT",
      description: "Dorsal: per-address rate limits and AWS managed rules in front of the site and API",
      defaultAction: { allow: {} },
      customResponseBodies: {
        tooMany: {
          contentType: "APPLICATION_JSON",
          content: JSON.stringify(tooManyRequestsBody),
        },
      },
      rules: [
        managed(0, "AWSManagedRulesAmazonIpReputationList"),
        rate(1, "IntentosPorDireccion", perAddressLimits.secretsPerAddress, {
          orStatement: { statements: secretPaths.map(startsWith) },
        }),
        rate(2, "ApiPorDireccion", perAddressLimits.apiPerAddress, {
          andStatement: {
            statements: [
              startsWith("/api/"),
              { notStatement: { statement: { orStatement: { statements: uploadPaths.map(startsWith) } } } },
            ],
          },
        }),
        managed(3, "AWSManagedRulesKnownBadInputsRuleSet"),
        managed(4, "AWSManagedRulesCommonRuleSet", countedCommonRules),
      ],
      visibilityConfig: visibility("Dorsal"),
    });
  }
}

/** The web ACL's own stack in us-east-1, for a site whose stacks live in another region. */
export class EdgeStack extends Stack {
  readonly webAcl: WebAcl;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.webAcl = new WebAcl(this, "WebAcl");
  }
}
