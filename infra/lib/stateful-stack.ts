import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as s3 from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { capacity } from "./capacity";
import { customDomainFrom } from "./custom-domain";
import { leanIndexesStep, tableIndexesAt } from "./table-indexes";

const { lifecycle } = capacity;

/**
 * The names under which the stateful stack exports what the stateless stack needs. A named
 * contract (rather than CDK's generated cross-stack references) keeps the two stacks free to
 * change independently, and keeps IAM resource names readable in cdk-nag acknowledgements.
 */
export interface StatefulExports {
  tableName: string;
  originalsBucketName: string;
  derivedBucketName: string;
  frontendBucketName: string;
  logsBucketName: string;
}

/** Where photos live in both data buckets: `eventos/{eventId}/{originales|web|miniaturas}/…`. */
export const photoKeyPrefix = "eventos/";

// The site origin is the CloudFront domain, which only exists in the stateless stack; naming it
// here would tie the stacks in a cycle. CORS is not what guards uploads anyway: a PUT needs a
// presigned URL that only the API hands out. A custom domain is known from the context.
const cloudFrontOrigins = ["https://*.cloudfront.net"];

/**
 * Everything that holds data and must outlive any deployment of the code: the single table and
 * the buckets. Data resources are retained when the stack is deleted.
 */
export class StatefulStack extends Stack {
  readonly table: dynamodb.Table;
  readonly originals: s3.Bucket;
  readonly derived: s3.Bucket;
  readonly frontend: s3.Bucket;
  readonly logs: s3.Bucket;
  readonly exportNames: StatefulExports;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const domain = customDomainFrom(this);

    this.table = new dynamodb.Table(this, "Table", {
      partitionKey: { name: "pk", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "sk", type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: "ttl",
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableIndexesAt(leanIndexesStep(this)).indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        ...(index.projection.type === "INCLUDE"
          ? { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }
          : { projectionType: dynamodb.ProjectionType.ALL }),
      });
    }

    this.logs = new s3.Bucket(this, "Logs", {
      ...privateBucket,
      // CloudFront standard logging writes through a bucket ACL, so ACLs must stay enabled here.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.originals = new s3.Bucket(this, "Originals", {
      ...privateBucket,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: "s3/originals/",
      cors: [
        {
          // The browser's uploader makes every multipart request itself, with URLs the API signs:
          // create and complete (POST), parts (PUT), list to resume (GET) and abort (DELETE).
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.POST, s3.HttpMethods.GET, s3.HttpMethods.DELETE],
          allowedOrigins: [...cloudFrontOrigins, ...(domain ? [`https://${domain.domainName}`] : [])],
          allowedHeaders: ["*"],
          // The browser reads each part's ETag to complete a multipart upload.
          exposedHeaders: ["ETag"],
          maxAge: 3600,
        },
      ],
      // docs/capacity.md, § Storage. Originals under eventos/ are kept; uploaded ZIPs, download
      // ZIPs and the pipeline's scratch objects are not, and neither are multipart uploads never completed.
      lifecycleRules: [
        {
          id: "AbortIncompleteMultipartUploads",
          abortIncompleteMultipartUploadAfter: lifecycle.abortIncompleteMultipartAfter,
        },
        { id: "ExpireUploadedZips", prefix: lifecycle.zipPrefix, expiration: lifecycle.zipExpiration },
        {
          id: "ExpireDownloadZips",
          prefix: lifecycle.downloadZipPrefix,
          expiration: lifecycle.downloadZipExpiration,
        },
        { id: "ExpireTemporaryFiles", prefix: lifecycle.tmpPrefix, expiration: lifecycle.tmpExpiration },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.derived = new s3.Bucket(this, "Derived", {
      ...privateBucket,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: "s3/derived/",
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // The site is rebuilt from frontend/dist on every deploy: nothing here is worth keeping.
    this.frontend = new s3.Bucket(this, "Frontend", {
      ...privateBucket,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: "s3/frontend/",
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    allowCloudFrontRead(this.frontend, "*");
    allowCloudFrontRead(this.derived, `${photoKeyPrefix}*`);
    // Download ZIPs are served like the originals they hold: signed, as attachments.
    allowCloudFrontRead(this.originals, `${photoKeyPrefix}*`, `${lifecycle.downloadZipPrefix}*`);

    const exported = (name: string, value: string, description: string) => {
      const exportName = `${this.stackName}-${name}`;
      new CfnOutput(this, name, { value, exportName, description });
      return exportName;
    };
    this.exportNames = {
      tableName: exported("TableName", this.table.tableName, "The single DynamoDB table"),
      originalsBucketName: exported("OriginalsBucketName", this.originals.bucketName, "Uploaded original photos"),
      derivedBucketName: exported("DerivedBucketName", this.derived.bucketName, "Web copies and thumbnails"),
      frontendBucketName: exported("FrontendBucketName", this.frontend.bucketName, "The built React site"),
      logsBucketName: exported("LogsBucketName", this.logs.bucketName, "S3 and CloudFront access logs"),
    };
  }
}

const privateBucket = {
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  encryption: s3.BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  minimumTLSVersion: 1.2,
} satisfies s3.BucketProps;

/**
 * Lets CloudFront read through origin access control. The distribution lives in the stateless
 * stack, so the condition names any distribution of this account rather than its ARN (which would
 * make the stacks depend on each other both ways).
 */
function allowCloudFrontRead(bucket: s3.Bucket, ...keyPatterns: string[]): void {
  const stack = Stack.of(bucket);
  bucket.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: "AllowCloudFrontOriginAccessControlRead",
      principals: [new iam.ServicePrincipal("cloudfront.amazonaws.com")],
      actions: ["s3:GetObject"],
      resources: keyPatterns.map((pattern) => bucket.arnForObjects(pattern)),
      conditions: {
        StringEquals: { "aws:SourceAccount": stack.account },
        ArnLike: { "aws:SourceArn": `arn:${stack.partition}:cloudfront::${stack.account}:distribution/*` },
      },
    }),
  );
}
