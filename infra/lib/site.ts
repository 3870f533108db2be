import { existsSync } from "node:fs";
import path from "node:path";
import { Annotations, Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as origins from "aws-cdk-lib/aws-cloudfront-origins";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as s3assets from "aws-cdk-lib/aws-s3-assets";
import * as s3deploy from "aws-cdk-lib/aws-s3-deployment";
import { Construct } from "constructs";
import { downloadZipPrefix } from "../../functions/src/app/storage-paths";
import { originVerifyHeader } from "../../functions/src/http/origin-verify";
import {
  appContentSecurityPolicy,
  storedFileContentSecurityPolicy,
  strictTransportSecurityMaxAgeSeconds,
} from "../../functions/src/http/security-headers";
import type { CustomDomain } from "./custom-domain";
import { acknowledgeCdkSingleton, acknowledgeWildcardResource } from "./nag";

export interface SiteProps {
  frontend: s3.IBucket;
  originals: s3.IBucket;
  derived: s3.IBucket;
  logs: s3.IBucket;
  /** Domain of the HTTP API's default endpoint. */
  apiDomain: string;
  /** Signers the image behaviours trust. */
  keyGroup: cloudfront.IKeyGroup;
  /** The built frontend (`npm run build`), deployed to the bucket; synth refuses without it. */
  siteDir: string;
  /** Served under this name with its certificate, besides `*.cloudfront.net`. */
  domain?: CustomDomain | undefined;
  /** The WAF web ACL (scope CLOUDFRONT, us-east-1) in front of everything. */
  webAclArn: string;
  /** Sent to the API as `x-origin-verify`; the functions refuse requests without it. */
  originVerify: string;
}

export const noSiteBuildMessage = (siteDir: string) =>
  `No frontend build in ${siteDir} (index.html is missing): run \`npm run build\` before \`npx cdk deploy\`, ` +
  "or the site would be deployed empty.";

/** Client-side routes have no file behind them: serve the app shell and let the router decide. */
const spaRoutingCode = `
function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf("/") + 1);
  if (last.indexOf(".") === -1) request.uri = "/index.html";
  return request;
}`;

/**
 * The one public entry point: a CloudFront distribution that serves the React build, proxies
 * `/api/*` to the HTTP API, and serves photos only through URLs signed by the API.
 *
 * SPA routes are rewritten to /index.html by a viewer-request function on the default behaviour
 * instead of distribution-wide 403/404 error responses, which would also replace the API's own
 * 403/404 answers and the refusals of unsigned image requests with the app shell.
 */
export class Site extends Construct {
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);

    // The same headers the local runtime sends (functions/src/http/security-headers.ts).
    const common = {
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(strictTransportSecurityMaxAgeSeconds),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: {
        referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
        override: true,
      },
    };
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, "SecurityHeaders", {
      comment: "Dorsal: security headers on every response",
      securityHeadersBehavior: {
        ...common,
        contentSecurityPolicy: {
          // Uploads PUT straight to S3 presigned URLs.
          contentSecurityPolicy: appContentSecurityPolicy(["https://*.amazonaws.com"]),
          override: true,
        },
      },
    });
    const storedFiles = (id: string, original: boolean) =>
      new cloudfront.ResponseHeadersPolicy(this, id, {
        comment: `Dorsal: ${original ? "originals" : "derived images"} are inert data${original ? ", downloaded" : ""}`,
        securityHeadersBehavior: {
          ...common,
          contentSecurityPolicy: { contentSecurityPolicy: storedFileContentSecurityPolicy, override: true },
        },
        ...(original
          ? {
              customHeadersBehavior: {
                customHeaders: [{ header: "Content-Disposition", value: "attachment", override: true }],
              },
            }
          : {}),
      });

    const images = (
      origin: cloudfront.IOrigin,
      headers: cloudfront.IResponseHeadersPolicy,
    ): cloudfront.BehaviorOptions => ({
      origin,
      trustedKeyGroups: [props.keyGroup],
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      // The signature is checked before the cache; the cache key leaves the signing query out.
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers,
    });

    const originalFiles = storedFiles("OriginalFileHeaders", true);
    // One origin object per bucket: the distribution binds an origin it is given twice only once.
    const originals = origins.S3BucketOrigin.withOriginAccessControl(props.originals);

    this.distribution = new cloudfront.Distribution(this, "Distribution", {
      comment: "Dorsal",
      defaultRootObject: "index.html",
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(props.frontend),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Brotli or gzip as the browser accepts (the policy keys the cache on both); how long each
        // file is kept follows its Cache-Control, set per prefix by `deploy` below.
        compress: true,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, "SpaRouting", {
              code: cloudfront.FunctionCode.fromInline(spaRoutingCode),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
              comment: "Dorsal: client-side routes get /index.html",
            }),
          },
        ],
      },
      additionalBehaviors: {
        "/api/*": {
          origin: new origins.HttpOrigin(props.apiDomain, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            // CloudFront replaces a viewer's header of the same name, so no viewer can forge it.
            customHeaders: { [originVerifyHeader]: props.originVerify },
          }),
          // A redirect would turn a POST into a GET; API clients must use HTTPS from the start.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Host must be the API's own domain or API Gateway cannot route the request.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
        },
        // CloudFront takes the first pattern that matches, so the narrower one comes first.
        "eventos/*/originales/*": images(originals, originalFiles),
        "eventos/*": images(
          origins.S3BucketOrigin.withOriginAccessControl(props.derived),
          storedFiles("DerivedFileHeaders", false),
        ),
        // ZIPs of originals built for a download link or a code (functions/src/app/original-zip.ts).
        [`${downloadZipPrefix}*`]: images(originals, originalFiles),
      },
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: props.logs,
      logFilePrefix: "cloudfront/",
      ...(props.domain
        ? {
            domainNames: [props.domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, "Certificate", props.domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });

    // The buckets belong to the stateful stack, which grants read to this account's distributions.
    Validations.of(this.distribution).acknowledge({
      id: "@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac",
      reason: "The stateful stack's bucket policies already let CloudFront read (origin access control).",
    });
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR1",
      reason: "Dorsal sells to runners wherever they are; there is no country to block.",
    });
    if (!props.domain) {
      Validations.of(this.distribution).acknowledge({
        id: "AwsSolutions-CFR4",
        reason:
          "The distribution uses the default *.cloudfront.net certificate, whose minimum protocol CloudFront " +
          "fixes; a custom domain (-c domainName, -c certificateArn) sets TLSv1.2_2021.",
      });
    }

    // Without a build the stack would deploy and CloudFront would answer 403 for every page.
    if (existsSync(path.join(props.siteDir, "index.html"))) this.deploy(props);
    else Annotations.of(this).addError(noSiteBuildMessage(props.siteDir));
  }

  /**
   * Uploads the build: content-hashed files under assets/ are cached for a year; everything else
   * (index.html first of all) is revalidated on every load, so a deploy shows up at once. Old
   * assets stay for browsers still running the previous index.html.
   */
  private deploy(props: SiteProps): void {
    const logGroup = new logs.LogGroup(this, "DeploymentLogs", {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, "DeploymentRole", { assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com") });
    logGroup.grantWrite(role);
    const common = { destinationBucket: props.frontend, role, logGroup, memoryLimit: 512 };

    // Staged as assets here rather than with Source.asset, to know the staging bucket they land in.
    // The build's .br/.gz copies are for the local runtime (CloudFront compresses by itself, see
    // `compress`) and its manifest (.vite/) is for the bundle-budget test: neither is published.
    const staged = (id: string, dir: string, exclude: string[] = []) => {
      const asset = new s3assets.Asset(this, id, { path: dir, exclude: [...exclude, "*.br", "*.gz", ".vite"] });
      return { source: s3deploy.Source.bucket(asset.bucket, asset.s3ObjectKey), bucket: asset.bucket };
    };
    const shellFiles = staged("ShellFiles", props.siteDir, ["assets"]);
    const assetsDir = path.join(props.siteDir, "assets");
    const assets = existsSync(assetsDir)
      ? new s3deploy.BucketDeployment(this, "DeployAssets", {
          ...common,
          sources: [staged("AssetFiles", assetsDir).source],
          destinationKeyPrefix: "assets/",
          prune: false,
          cacheControl: [
            s3deploy.CacheControl.setPublic(),
            s3deploy.CacheControl.maxAge(Duration.days(365)),
            s3deploy.CacheControl.immutable(),
          ],
        })
      : undefined;
    const shell = new s3deploy.BucketDeployment(this, "DeployShell", {
      ...common,
      sources: [shellFiles.source],
      // Neither uploaded nor pruned here: the assets deployment owns that prefix.
      exclude: ["assets/*"],
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ["/*"],
    });
    if (assets) shell.node.addDependency(assets);

    acknowledgeCdkSingleton(this, "Custom::CDKBucketDeployment", {
      id: "AwsSolutions-L1",
      reason: "CDK's BucketDeployment handler (it runs with the role above): aws-cdk-lib chooses its runtime.",
    });
    const grants = "CDK's BucketDeployment grants: read the staged site asset, sync (and prune) the frontend bucket.";
    Validations.of(role).acknowledge(
      ...["s3:GetObject*", "s3:GetBucket*", "s3:List*", "s3:DeleteObject*", "s3:Abort*"].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: grants,
      })),
      {
        id: "AwsSolutions-IAM5[Resource::*]",
        reason: "CloudFront CreateInvalidation and GetInvalidation have no resource-level permissions.",
      },
    );
    acknowledgeWildcardResource(role, props.frontend.arnForObjects("*"), grants);
    acknowledgeWildcardResource(role, shellFiles.bucket.arnForObjects("*"), grants);
  }
}
