import path from "node:path";
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps, Validations } from "aws-cdk-lib";
import * as apigw from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import { downloadZipPrefix, faceCollectionPrefix, zipUploadPrefix } from "../../functions/src/app/storage-paths";
import { routeThrottles, stageThrottle } from "../../functions/src/http/abuse-limits";
import { type HttpHandlerName, httpHandlers, httpRoutes } from "../../functions/src/http/routes";
import { jobSliceMs } from "../../functions/src/jobs/definitions";
import { type PipelineTask, pipelineTasks } from "../../functions/src/pipeline/definition";
import { preflightFunctionTimeoutSeconds } from "../../functions/src/preflight/definition";
import { AdminBootstrap, adminEmailFrom } from "./admin-bootstrap";
import { Alarms, alarmEmailFrom } from "./alarms";
import { LambdaBundles } from "./bundling";
import { capacity } from "./capacity";
import { reservesConcurrency } from "./concurrency";
import { customDomainFrom } from "./custom-domain";
import { DorsalFunction, type DorsalFunctionProps } from "./dorsal-function";
import { JobWorkflow } from "./job-workflow";
import { mailFromContext } from "./mail";
import { acknowledgeWildcardResource } from "./nag";
import { Pipeline } from "./pipeline";
import { Preflight } from "./preflight";
import { SigningKeys, signingKeysEntry } from "./signing-keys";
import { Site } from "./site";
import { photoKeyPrefix, type StatefulExports } from "./stateful-stack";
import { leanIndexesStep, tableIndexesAt } from "./table-indexes";
import { WebAcl } from "./web-acl";

export interface StatelessStackProps extends StackProps {
  /** What the stateful stack exports, by export name. */
  stateful: StatefulExports;
  /** Root of the repository: handlers are bundled from functions/, the site from frontend/dist. */
  repoRoot: string;
  /** The distribution's web ACL when it lives in another stack (us-east-1); else the stack makes its own. */
  webAcl?: WebAcl;
}

/** What one function may touch, beyond its logs (every function verifies sessions with the public JWT key). */
interface Access {
  /** Items of the single table (read and write, indexes included). */
  table?: boolean;
  /** S3 actions on photo objects (`eventos/*`) of each bucket. */
  originals?: string[];
  derived?: string[];
  /** S3 actions on uploaded ZIPs (`uploads/zips/*`) of the originals bucket. */
  zips?: string[];
  /** Writes download ZIPs (`descargas/*`) to the originals bucket. */
  writesDownloadZips?: boolean;
  /** Asks whether an original exists: without s3:ListBucket, S3 answers 403 instead of 404. */
  headsOriginals?: boolean;
  /** Lists an event's objects in both buckets (deleting the event). */
  listsPhotos?: boolean;
  /** Issues session tokens: reads the JWT private key (JWT_KEY_SECRET_ARN); every other function only verifies. */
  signsSessions?: boolean;
  /** Reads the CloudFront private key to sign image URLs. */
  signsUrls?: boolean;
  /** Rekognition text and face detection. */
  vision?: boolean;
  /** Reads the Google OAuth client and the drive tokens' sealing key (DRIVE_SECRET_ARN). */
  drive?: boolean;
  /** Rekognition face detection alone (the selfie's faces counted before a search). */
  detectsFaces?: boolean;
  /** Rekognition actions on the deployment's face collections (`{table}-faces-*`, one per event with selfie search). */
  faceCollections?: string[];
  /** Reads the Wompi keys (WOMPI_SECRET_ARN). */
  payments?: boolean;
  /** Reads the account's Lambda concurrency and Rekognition's TPS quotas. */
  readsQuotas?: boolean;
  /** Lists and deletes download ZIPs past their links' life ('Limpiar archivos temporales'). */
  cleansDownloadZips?: boolean;
  /** Reads the dashboard's metrics back from CloudWatch (every function writes them as log lines). */
  readsMetrics?: boolean;
  /** Sends email through Amazon SES as MAIL_FROM (the `mailFrom` context value). */
  sendsMail?: boolean;
}

interface FunctionSpec extends Pick<DorsalFunctionProps, "memorySize" | "timeout" | "reservedConcurrentExecutions"> {
  description: string;
  access: Access;
}

const httpSpecs: Record<HttpHandlerName, FunctionSpec> = {
  // Password hashing is CPU-bound, and Lambda hands out CPU in proportion to memory.
  auth: { description: "HTTP: login and session", memorySize: 1024, access: { table: true, signsSessions: true } },
  // Deleting an event only removes its item and starts the deletion workflow (eventDeletionSpec).
  // Switching selfie search off deletes the event's face collection.
  events: {
    description: "HTTP: events and dashboard",
    access: { table: true, faceCollections: ["rekognition:DeleteCollection"] },
  },
  photos: {
    description: "HTTP: uploads, search and photo pages",
    memorySize: 1024,
    // API Gateway gives up on an integration after 30 s.
    timeout: Duration.seconds(29),
    access: {
      table: true,
      // Single-part PUTs and multipart uploads (create, parts, complete, abort, resume).
      originals: ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
      // ZIPs: stored by upload-zip, or presigned for the browser to send straight to storage.
      zips: ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
      signsUrls: true,
    },
  },
  users: {
    description: "HTTP: photographer accounts",
    // Password hashing is CPU-bound, and Lambda hands out CPU in proportion to memory.
    memorySize: 1024,
    access: { table: true },
  },
  admin: {
    description: "HTTP: processing progress, failed photos and their re-run, preflight runs, performance figures",
    access: {
      table: true,
      headsOriginals: true,
      originals: ["s3:GetObject"],
      signsUrls: true,
      cleansDownloadZips: true,
      readsMetrics: true,
    },
  },
  applications: {
    description: "HTTP: photographer applications and their review",
    // Approving hashes the new photographer's password: CPU-bound, and memory buys CPU.
    memorySize: 1024,
    access: { table: true, sendsMail: true },
  },
  pricing: { description: "HTTP: event pricing", access: { table: true } },
  settings: {
    description: "HTTP: system settings, sales counter reset and storage status",
    // The storage status counts the photo objects by listing them (prefix-limited ListBucket).
    access: { table: true, listsPhotos: true },
  },
  browse: {
    description: "HTTP: public browsing by event and bib, and free photos",
    access: { table: true, signsUrls: true },
  },
  notifications: {
    description: "HTTP: athletes' 'avísame' requests, their confirmation and unsubscribe links",
    access: { table: true, sendsMail: true },
  },
  faces: {
    description: "HTTP: selfie search and an athlete's deletion of their face results",
    // A selfie of a few MB is decoded (HEIC too) and re-encoded for Rekognition: memory buys CPU.
    memorySize: 1024,
    timeout: Duration.seconds(29),
    access: {
      table: true,
      signsUrls: true,
      detectsFaces: true,
      faceCollections: ["rekognition:SearchFacesByImage", "rekognition:DeleteFaces"],
    },
  },
  // Both build download ZIPs: originals read from S3 and written back as one ZIP within API
  // Gateway's 30 s (functions/src/app/original-zip.ts); memory buys network throughput.
  codes: {
    description: "HTTP: download codes, their validation and downloads",
    memorySize: 1024,
    timeout: Duration.seconds(29),
    access: { table: true, signsUrls: true, originals: ["s3:GetObject"], writesDownloadZips: true, sendsMail: true },
  },
  sales: {
    description: "HTTP: cart price, checkout, payment events and paid downloads",
    memorySize: 1024,
    timeout: Duration.seconds(29),
    access: {
      table: true,
      signsUrls: true,
      payments: true,
      originals: ["s3:GetObject"],
      writesDownloadZips: true,
      sendsMail: true,
    },
  },
  drive: {
    description: "HTTP: cloud-drive connection, folders and the start of an import",
    // Listing a big folder takes a few of Drive's pages; API Gateway gives up after 30 s.
    timeout: Duration.seconds(29),
    // The import's start object lands beside the uploaded ZIPs, which the unzip function picks up.
    access: { table: true, drive: true, zips: ["s3:PutObject"] },
  },
};

const pipelineSpecs: Record<PipelineTask, FunctionSpec> = {
  prepare: {
    description: "Pipeline: identify the upload and register the photo",
    access: { table: true, originals: ["s3:GetObject"], headsOriginals: true },
  },
  variants: {
    description: "Pipeline: web copy and thumbnail",
    // Decoding a 50 MB JPEG takes memory, and memory buys CPU.
    memorySize: 2048,
    timeout: Duration.minutes(2),
    reservedConcurrentExecutions: capacity.variantsReservedConcurrency,
    access: { originals: ["s3:GetObject"], derived: ["s3:PutObject"] },
  },
  detect: {
    description: "Pipeline: bib numbers and faces",
    // It sends Rekognition the ≤ 3000 px working copy variants made, as it is: measured with
    // `npm run bench:detect`, ~30 CPU-ms and ~120 MB peak a photo (docs/capacity.md § Detect).
    memorySize: 512,
    timeout: Duration.minutes(1),
    // Sized so Lambda can never call Rekognition faster than its TPS quota (docs/capacity.md).
    reservedConcurrentExecutions: capacity.detectReservedConcurrency,
    // The table holds the event's recognition settings.
    access: {
      table: true,
      originals: ["s3:GetObject"],
      derived: ["s3:GetObject"],
      vision: true,
      // Selfie search (events that have it on): the photo's faces into the event's collection, made on
      // the first; deleted again if the event was switched off meanwhile.
      faceCollections: ["rekognition:IndexFaces", "rekognition:CreateCollection", "rekognition:DeleteCollection"],
    },
  },
  record: {
    description: "Pipeline: photo, bib links and stats",
    timeout: Duration.seconds(30),
    // Once the photo is recorded, the working copy detect read is deleted.
    access: { table: true, derived: ["s3:DeleteObject"] },
  },
  fail: {
    description: "Pipeline: record a failed photo",
    timeout: Duration.seconds(30),
    // A photo whose event was deleted meanwhile is removed instead, copies included.
    access: { table: true, originals: ["s3:DeleteObject"], derived: ["s3:DeleteObject"] },
  },
};

const unzipSpec: FunctionSpec = {
  description: "Pipeline: extract an uploaded ZIP, or import a drive folder, into originals",
  // Streams only (64 KB windows, a few entries at a time): memory is for inflate and CPU, not the archive.
  memorySize: 1024,
  // Lambda's maximum: 5000 photos in 2 GB take a few minutes; a timeout is retried and resumes.
  timeout: Duration.minutes(15),
  access: {
    table: true,
    originals: ["s3:GetObject", "s3:PutObject"],
    headsOriginals: true,
    // The ZIP (or a drive import's start) is deleted once extracted.
    zips: ["s3:GetObject", "s3:DeleteObject"],
    // A drive import streams each file from Google Drive with the admin's tokens.
    drive: true,
  },
};

const reconcileSpec: FunctionSpec = {
  description: "Payments: settle pending sales whose Wompi event never arrived",
  // Up to 100 lookups of a few hundred ms each, and the email of each sale they pay.
  timeout: Duration.minutes(2),
  access: { table: true, payments: true, sendsMail: true },
};

const notifySweepSpec: FunctionSpec = {
  description: "Notifications: email the 'avísame' subscriptions whose bib's photos stopped arriving",
  // Up to 200 messages, each an SES call given 8 s at most.
  timeout: Duration.minutes(4),
  access: { table: true, sendsMail: true },
};

const recountSpec: FunctionSpec = {
  description: "Counters: start the recount of events whose counters moved, recount the sales months, resume deletions",
  // A read of every event's stats and the sales months; each event's recount runs in its own workflow.
  timeout: Duration.minutes(5),
  access: { table: true },
};

const recountSliceSpec: FunctionSpec = {
  description: "Counters: recount a time slice's worth of an event's photos and bib links, from its checkpoint",
  // Twice the slice it works for: a slow last page still ends inside the timeout.
  timeout: Duration.millis(jobSliceMs.lambda * 2),
  access: { table: true },
};

const faceIndexingSliceSpec: FunctionSpec = {
  description: "Selfie search: index a time slice's worth of an event's existing photos' faces, from its progress",
  // Twice the slice it works for; originals of up to 50 MB are read and re-encoded for Rekognition.
  timeout: Duration.millis(jobSliceMs.lambda * 2),
  memorySize: 1024,
  access: {
    table: true,
    originals: ["s3:GetObject"],
    faceCollections: ["rekognition:IndexFaces", "rekognition:CreateCollection", "rekognition:DeleteCollection"],
  },
};

const eventDeletionSpec: FunctionSpec = {
  description: "Event deletion: removes a time slice's worth of a deleted event's items and objects",
  // Twice the slice it works for: a slow last page still ends inside the timeout.
  timeout: Duration.millis(jobSliceMs.lambda * 2),
  access: {
    table: true,
    originals: ["s3:DeleteObject"],
    derived: ["s3:DeleteObject"],
    zips: ["s3:DeleteObject"],
    listsPhotos: true,
    faceCollections: ["rekognition:DeleteCollection"],
  },
};

const preflightSpec: FunctionSpec = {
  description: "Preflight: a probe through every stage, after each deploy, on a schedule and from /preflight",
  // It creates a temporary admin: scrypt is CPU-bound, and memory buys CPU.
  memorySize: 1024,
  // Sign-in, two probe photos through the pipeline and the cleanup (functions/src/preflight/definition.ts).
  timeout: Duration.seconds(preflightFunctionTimeoutSeconds),
  // Everything else goes through the site's public URL (CLOUDFRONT_DOMAIN), as a browser's would;
  // the table holds the runs, and the payment keys are checked to load and sign.
  access: { table: true, payments: true, readsQuotas: true },
};

const starterSpec: FunctionSpec = {
  description: "Pipeline: start one execution per uploaded original",
  // Bounded by its event source's maxConcurrency rather than by reserved concurrency.
  timeout: capacity.starter.timeout,
  access: {},
};

/**
 * Everything that can be replaced at will: the functions, the HTTP API, the pipeline, the signing
 * keys, the first admin's bootstrap and the CloudFront distribution. Table and buckets come from
 * the stateful stack's exports. The first admin's email is the `adminEmail` context value.
 */
export class StatelessStack extends Stack {
  readonly api: apigw.HttpApi;
  readonly httpFunctions: Record<HttpHandlerName, DorsalFunction>;
  readonly pipelineFunctions: Record<PipelineTask, DorsalFunction>;
  readonly starter: DorsalFunction;
  readonly unzip: DorsalFunction;
  readonly paymentsReconciler: DorsalFunction;
  readonly countersRecounter: DorsalFunction;
  readonly notificationsSweeper: DorsalFunction;
  /** Deletes a deleted event's items and objects a time slice at a time, looped by `eventDeletion`. */
  readonly eventDeletionSlice: DorsalFunction;
  readonly eventDeletion: JobWorkflow;
  /** Recounts an event's counters a time slice at a time, looped by `counterRecount`. */
  readonly counterRecountSlice: DorsalFunction;
  readonly counterRecount: JobWorkflow;
  /** Indexes the faces of an event's existing photos when selfie search is switched on, looped by `faceIndexing`. */
  readonly faceIndexingSlice: DorsalFunction;
  readonly faceIndexing: JobWorkflow;
  /** The preflight's function (functions/src/handlers/preflight.ts); see `preflight`. */
  readonly preflightFunction: DorsalFunction;
  /** Wompi's keys as JSON; ops fill it in after the first deploy (docs/payments.md). */
  readonly wompiKeys: secretsmanager.Secret;
  /** The Google OAuth client (filled in by ops) and the generated key the drive tokens are sealed with. */
  readonly driveSecret: secretsmanager.Secret;
  readonly pipeline: Pipeline;
  readonly site: Site;
  readonly webAcl: WebAcl;
  /** The value CloudFront sends to the API in `x-origin-verify` (ORIGIN_VERIFY_SECRET). */
  readonly originVerify: secretsmanager.Secret;
  readonly keys: SigningKeys;
  readonly admin: AdminBootstrap;
  readonly alarms: Alarms;
  readonly preflight: Preflight;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { stateful } = props;

    const table = dynamodb.Table.fromTableAttributes(this, "Table", {
      tableName: Fn.importValue(stateful.tableName),
      globalIndexes: ["gsi1", "gsi2"],
    });
    const bucket = (name: string, exportName: string) =>
      s3.Bucket.fromBucketAttributes(this, name, { bucketName: Fn.importValue(exportName) });
    const originals = bucket("Originals", stateful.originalsBucketName);
    const derived = bucket("Derived", stateful.derivedBucketName);

    const handlers = path.join(props.repoRoot, "functions", "src", "handlers");
    // Every function's entry, before any function is defined: they are bundled in one esbuild call,
    // and a function whose entry is missing here stops the synth (`LambdaBundles.bundlerOf`).
    const entries = {
      http: byName(httpHandlers, (name) => path.join(handlers, "http", `${name}.ts`)),
      pipeline: byName(pipelineTasks, (task) => path.join(handlers, "pipeline", `${task}.ts`)),
      starter: path.join(handlers, "pipeline", "starter.ts"),
      unzip: path.join(handlers, "pipeline", "unzip.ts"),
      paymentsReconcile: path.join(handlers, "payments-reconcile.ts"),
      countersRecount: path.join(handlers, "counters-recount.ts"),
      notificationsSweep: path.join(handlers, "notifications-sweep.ts"),
      eventDeletionSlice: path.join(handlers, "jobs", "event-deletion-slice.ts"),
      counterRecountSlice: path.join(handlers, "jobs", "counter-recount-slice.ts"),
      faceIndexingSlice: path.join(handlers, "jobs", "face-indexing-slice.ts"),
      preflight: path.join(handlers, "preflight.ts"),
      adminBootstrap: path.join(handlers, "admin-bootstrap.ts"),
      signingKeys: signingKeysEntry,
    };
    const bundles = new LambdaBundles(
      Object.values(entries).flatMap((entry) => (typeof entry === "string" ? [entry] : Object.values(entry))),
    );

    this.keys = new SigningKeys(this, "SigningKeys", bundles);
    // Created with a throwaway random value: checkout answers 503 until ops store the real keys.
    this.wompiKeys = new secretsmanager.Secret(this, "WompiKeys", {
      description:
        'Dorsal: Wompi keys as {"publicKey","privateKey","integritySecret","eventsSecret"}; filled in by ops',
    });
    Validations.of(this.wompiKeys).acknowledge({
      id: "AwsSolutions-SMG4",
      reason: "Wompi issues these keys in its dashboard; they are rotated there and stored here by ops.",
    });

    // Until ops put the OAuth client in, the drive screens say Google Drive is not configured.
    this.driveSecret = new secretsmanager.Secret(this, "DriveSecret", {
      description:
        'Dorsal: Google Drive as {"clientId","clientSecret","tokenKey"}; ops fill in the OAuth client, keep tokenKey',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ clientId: "", clientSecret: "" }),
        generateStringKey: "tokenKey",
        passwordLength: 64,
        excludePunctuation: true,
      },
    });
    Validations.of(this.driveSecret).acknowledge({
      id: "AwsSolutions-SMG4",
      reason:
        "Google issues the OAuth client in its console; a new tokenKey would only make admins connect their drive again.",
    });

    this.api = new apigw.HttpApi(this, "Api", {
      description: "Dorsal HTTP API (reached through CloudFront at /api/*)",
      createDefaultStage: false,
    });
    const stage = this.api.addStage("DefaultStage", {
      stageName: "$default",
      autoDeploy: true,
      // A ceiling against runaway clients; race-day peaks stay well below it.
      throttle: { rateLimit: stageThrottle.rate, burstLimit: stageThrottle.burst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(
          new logs.LogGroup(this, "ApiAccessLogs", {
            retention: logs.RetentionDays.ONE_MONTH,
            removalPolicy: RemovalPolicy.DESTROY,
          }),
        ),
      },
    });
    // Sign-in and the race-day reads get their own, lower ceilings (functions/src/http/abuse-limits.ts);
    // the local runtime applies the same ones.
    (stage.node.defaultChild as apigw.CfnStage).routeSettings = Object.fromEntries(
      Object.entries(routeThrottles).map(([routeKey, { rate, burst }]) => [
        routeKey,
        // A free-form JSON property: CloudFormation's own casing, not CDK's.
        { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst },
      ]),
    );

    const domain = customDomainFrom(this);
    // What CloudFront adds to every API request: the functions refuse any request without it, so the
    // API's own endpoint cannot be used to go around the web ACL or to claim a viewer address.
    this.originVerify = new secretsmanager.Secret(this, "OriginVerify", {
      description: "Dorsal: header value CloudFront sends to the API, proving a request came through it",
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    Validations.of(this.originVerify).acknowledge({
      id: "AwsSolutions-SMG4",
      reason:
        "CloudFront's origin header and the functions read the value at deploy time; rotating it means a redeploy " +
        "(replace the secret), as with the signing keys.",
    });
    this.webAcl = props.webAcl ?? new WebAcl(this, "WebAcl");
    this.site = new Site(this, "Site", {
      webAclArn: this.webAcl.acl.attrArn,
      originVerify: this.originVerify.secretValue.unsafeUnwrap(),
      frontend: bucket("Frontend", stateful.frontendBucketName),
      originals,
      derived,
      logs: bucket("Logs", stateful.logsBucketName),
      // The API's id, not its URL: the distribution then depends on the API alone, not on the
      // routes and functions, which themselves need the distribution's domain.
      apiDomain: `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      keyGroup: this.keys.keyGroup,
      siteDir: path.join(props.repoRoot, "frontend", "dist"),
      domain,
    });
    // The address buyers come back to from the payment page and photos are signed for.
    const siteDomain = domain?.domainName ?? this.site.distribution.distributionDomainName;

    // What functions/src/config.ts reads when DORSAL_RUNTIME=aws.
    const environment = {
      DORSAL_RUNTIME: "aws",
      TABLE_NAME: table.tableName,
      // Where gsi1 queries go at this step of the lean-index migration (table-indexes.ts).
      GSI1_INDEX_NAME: tableIndexesAt(leanIndexesStep(this)).gsi1IndexName,
      ORIGINALS_BUCKET: originals.bucketName,
      DERIVED_BUCKET: derived.bucketName,
      JWT_PUBLIC_JWK: this.keys.jwtPublicJwk,
      CLOUDFRONT_DOMAIN: siteDomain,
      CLOUDFRONT_KEY_PAIR_ID: this.keys.publicKey.publicKeyId,
      CLOUDFRONT_PRIVATE_KEY_SECRET_ARN: this.keys.cloudFrontKeySecret.secretArn,
      VISION_ENGINE: "rekognition",
      // One namespace per stack: two deployments in one account never mix their figures.
      METRICS_NAMESPACE: `Dorsal/${this.stackName}`,
    };
    const buckets = [
      { key: "originals", bucket: originals },
      { key: "derived", bucket: derived },
    ] as const;

    // Without it nothing is emailed; every action that would send says its email was not sent.
    const mailFrom = mailFromContext(this);

    // An account whose concurrency quota cannot hold the reservations deploys without them.
    const reserves = reservesConcurrency(this);
    const appFunction = (
      id: string,
      entry: string,
      { access, reservedConcurrentExecutions, ...spec }: FunctionSpec,
    ) => {
      const fn = new DorsalFunction(this, id, {
        ...spec,
        ...(reserves ? { reservedConcurrentExecutions } : {}),
        entry,
        bundles,
        environment,
      });
      if (access.signsSessions) {
        this.keys.jwtKeySecret.grantRead(fn.fn);
        fn.fn.addEnvironment("JWT_KEY_SECRET_ARN", this.keys.jwtKeySecret.secretArn);
      }
      if (access.signsUrls) this.keys.cloudFrontKeySecret.grantRead(fn.fn);
      if (access.table) {
        table.grantReadWriteData(fn.fn);
        acknowledgeWildcardResource(
          fn,
          `${table.tableArn}/index/*`,
          "Queries go to the table's own GSIs, gsi1 and gsi2.",
        );
      }
      for (const { key, bucket } of buckets) {
        const actions = access[key];
        if (!actions) continue;
        const photos = bucket.arnForObjects(`${photoKeyPrefix}*`);
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [photos] }));
        acknowledgeWildcardResource(
          fn,
          photos,
          "Photo objects are keyed eventos/{eventId}/…/{photoId}; the function handles any event's photos.",
        );
      }
      if (access.zips) {
        const zips = originals.arnForObjects(`${zipUploadPrefix}*`);
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: access.zips, resources: [zips] }));
        acknowledgeWildcardResource(fn, zips, "Uploaded ZIPs are keyed uploads/zips/{batchId}.zip, one per batch.");
      }
      if (access.writesDownloadZips) {
        const downloadZips = originals.arnForObjects(`${downloadZipPrefix}*`);
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ["s3:PutObject"], resources: [downloadZips] }));
        acknowledgeWildcardResource(
          fn,
          downloadZips,
          "Download ZIPs are keyed descargas/{day}/{random}/{name}.zip, one per request.",
        );
      }
      if (access.headsOriginals) {
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ["s3:ListBucket"], resources: [originals.bucketArn] }),
        );
      }
      if (access.listsPhotos) {
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ["s3:ListBucket"],
            resources: [originals.bucketArn, derived.bucketArn],
            conditions: { StringLike: { "s3:prefix": [`${photoKeyPrefix}*`, `${zipUploadPrefix}*`] } },
          }),
        );
      }
      if (access.drive) {
        this.driveSecret.grantRead(fn.fn);
        fn.fn.addEnvironment("DRIVE_SECRET_ARN", this.driveSecret.secretArn);
      }
      if (access.payments) {
        this.wompiKeys.grantRead(fn.fn);
        fn.fn.addEnvironment("WOMPI_SECRET_ARN", this.wompiKeys.secretArn);
      }
      if (access.vision) {
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ["rekognition:DetectText", "rekognition:DetectFaces"], resources: ["*"] }),
        );
        Validations.of(fn.role).acknowledge({
          id: "AwsSolutions-IAM5[Resource::*]",
          reason: "Rekognition DetectText and DetectFaces (like X-Ray) have no resource-level permissions.",
        });
      }
      if (access.detectsFaces) {
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ["rekognition:DetectFaces"], resources: ["*"] }));
        Validations.of(fn.role).acknowledge({
          id: "AwsSolutions-IAM5[Resource::*]",
          reason: "Rekognition DetectFaces has no resource-level permissions.",
        });
      }
      if (access.faceCollections) {
        const collections = this.formatArn({
          service: "rekognition",
          resource: "collection",
          resourceName: `${faceCollectionPrefix(table.tableName)}*`,
        });
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: access.faceCollections, resources: [collections] }));
        acknowledgeWildcardResource(
          fn,
          collections,
          "One Rekognition collection per event with selfie search, named {table}-faces-{eventId}.",
        );
      }
      if (access.cleansDownloadZips) {
        const downloadZips = originals.arnForObjects(`${downloadZipPrefix}*`);
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ["s3:DeleteObject"], resources: [downloadZips] }));
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ["s3:ListBucket"],
            resources: [originals.bucketArn],
            conditions: { StringLike: { "s3:prefix": [`${downloadZipPrefix}*`] } },
          }),
        );
        acknowledgeWildcardResource(
          fn,
          downloadZips,
          "Download ZIPs are keyed descargas/{day}/{random}/{name}.zip; the cleanup deletes past days'.",
        );
      }
      if (access.readsMetrics) {
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ["cloudwatch:GetMetricData"], resources: ["*"] }));
        Validations.of(fn.role).acknowledge({
          id: "AwsSolutions-IAM5[Resource::*]",
          reason: "CloudWatch GetMetricData has no resource-level permissions; it only reads metrics.",
        });
      }
      if (access.sendsMail && mailFrom) {
        fn.fn.addEnvironment("MAIL_FROM", mailFrom.value);
        const identities = this.formatArn({ service: "ses", resource: "identity", resourceName: "*" });
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ["ses:SendEmail"],
            resources: [identities],
            conditions: { StringEquals: { "ses:FromAddress": mailFrom.address } },
          }),
        );
        acknowledgeWildcardResource(
          fn,
          identities,
          "Scoped to the sender by ses:FromAddress: SES checks the sender's identity (its address or its " +
            "domain, whichever is verified) and, in the SES sandbox, each verified recipient's too.",
        );
      }
      if (access.readsQuotas) {
        fn.fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: [
              "lambda:GetAccountSettings",
              "servicequotas:ListServiceQuotas",
              "servicequotas:ListAWSDefaultServiceQuotas",
            ],
            resources: ["*"],
          }),
        );
        Validations.of(fn.role).acknowledge({
          id: "AwsSolutions-IAM5[Resource::*]",
          reason:
            "Lambda GetAccountSettings and Service Quotas' List(AWSDefault)ServiceQuotas have no resource-level " +
            "permissions (like X-Ray); they read quotas, nothing else.",
        });
      }
      return fn;
    };

    this.httpFunctions = byName(httpHandlers, (name) => {
      const fn = appFunction(`Http-${name}`, entries.http[name], httpSpecs[name]);
      fn.fn.addEnvironment("ORIGIN_VERIFY_SECRET", this.originVerify.secretValue.unsafeUnwrap());
      return fn;
    });
    const integrations = byName(
      httpHandlers,
      (name) => new HttpLambdaIntegration(`${name}Integration`, this.httpFunctions[name].fn),
    );
    for (const route of httpRoutes) {
      const [created] = this.api.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: integrations[route.handler],
      });
      // A stage's route settings must name routes that exist already.
      if (created && `${route.method} ${route.path}` in routeThrottles) stage.node.addDependency(created);
    }
    Validations.of(this.api).acknowledge({
      id: "AwsSolutions-APIG4",
      reason:
        "Sessions are app-issued JWTs verified inside the handlers (jose), the same code locally " +
        "and on AWS; public routes (login, search) are public by design.",
    });

    this.pipelineFunctions = byName(pipelineTasks, (task) =>
      appFunction(`Pipeline-${task}`, entries.pipeline[task], pipelineSpecs[task]),
    );
    this.starter = appFunction("Pipeline-starter", entries.starter, starterSpec);
    this.unzip = appFunction("Pipeline-unzip", entries.unzip, unzipSpec);
    this.paymentsReconciler = appFunction("Payments-reconcile", entries.paymentsReconcile, reconcileSpec);
    // Cheap: one invocation every 10 minutes, a query of the sparse pending-sales index when idle.
    new events.Rule(this, "ReconcilePayments", {
      description: "Settles pending sales by looking them up at Wompi",
      schedule: events.Schedule.rate(Duration.minutes(10)),
      targets: [new targets.LambdaFunction(this.paymentsReconciler.fn)],
    });
    this.countersRecounter = appFunction("Counters-recount", entries.countersRecount, recountSpec);
    // Hourly: an event untouched since its last recount costs one read of its stats.
    new events.Rule(this, "RecountCounters", {
      description: "Recounts the counters of events that changed since their last recount",
      schedule: events.Schedule.rate(Duration.hours(1)),
      targets: [new targets.LambdaFunction(this.countersRecounter.fn)],
    });
    this.notificationsSweeper = appFunction("Notifications-sweep", entries.notificationsSweep, notifySweepSpec);
    // Every 5 minutes: when idle, one query of the sparse index of owed messages.
    new events.Rule(this, "SendPhotoNotifications", {
      description: "Emails the athletes whose bib's photos stopped arriving (avísame)",
      schedule: events.Schedule.rate(Duration.minutes(5)),
      targets: [new targets.LambdaFunction(this.notificationsSweeper.fn)],
    });
    this.pipeline = new Pipeline(this, "Pipeline", {
      tasks: byName(pipelineTasks, (task) => this.pipelineFunctions[task].fn),
      starter: this.starter.fn,
      unzip: this.unzip.fn,
      originals,
    });
    // Re-running failed photos starts executions through the same port as the starter.
    this.httpFunctions.admin.fn.addEnvironment("STATE_MACHINE_ARN", this.pipeline.stateMachine.stateMachineArn);
    this.pipeline.stateMachine.grantStartExecution(this.httpFunctions.admin.fn);
    // The dashboard's queue: the uploads waiting for the starter.
    this.httpFunctions.admin.fn.addEnvironment("START_QUEUE_URL", this.pipeline.queue.queueUrl);
    this.httpFunctions.admin.fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ["sqs:GetQueueAttributes"], resources: [this.pipeline.queue.queueArn] }),
    );
    this.eventDeletionSlice = appFunction("Event-deletion", entries.eventDeletionSlice, eventDeletionSpec);
    this.eventDeletion = new JobWorkflow(this, "EventDeletion", {
      job: "eventDeletion",
      slice: this.eventDeletionSlice.fn,
    });
    this.counterRecountSlice = appFunction("Counters-recount-slice", entries.counterRecountSlice, recountSliceSpec);
    this.counterRecount = new JobWorkflow(this, "CounterRecount", {
      job: "counterRecount",
      slice: this.counterRecountSlice.fn,
    });
    this.countersRecounter.fn.addEnvironment(
      "RECOUNT_STATE_MACHINE_ARN",
      this.counterRecount.stateMachine.stateMachineArn,
    );
    this.counterRecount.stateMachine.grantStartExecution(this.countersRecounter.fn);
    // The events API starts deletions; the hourly recount starts again those whose workflow stopped.
    for (const starter of [this.httpFunctions.events, this.countersRecounter]) {
      starter.fn.addEnvironment("DELETION_STATE_MACHINE_ARN", this.eventDeletion.stateMachine.stateMachineArn);
      this.eventDeletion.stateMachine.grantStartExecution(starter.fn);
    }
    this.faceIndexingSlice = appFunction("Face-indexing-slice", entries.faceIndexingSlice, faceIndexingSliceSpec);
    this.faceIndexing = new JobWorkflow(this, "FaceIndexing", {
      job: "faceIndexing",
      slice: this.faceIndexingSlice.fn,
    });
    // Switching selfie search on (the events API) starts it; the hourly recount starts again a run that stopped.
    for (const starter of [this.httpFunctions.events, this.countersRecounter]) {
      starter.fn.addEnvironment("FACE_INDEXING_STATE_MACHINE_ARN", this.faceIndexing.stateMachine.stateMachineArn);
      this.faceIndexing.stateMachine.grantStartExecution(starter.fn);
    }
    this.preflightFunction = appFunction("Preflight-run", entries.preflight, preflightSpec);

    this.alarms = new Alarms(this, "Alarms", {
      pipeline: this.pipeline,
      failTask: this.pipelineFunctions.fail,
      functions: {
        ...Object.fromEntries(httpHandlers.map((name) => [`Http${capitalized(name)}`, this.httpFunctions[name]])),
        ...Object.fromEntries(
          pipelineTasks.map((task) => [`Pipeline${capitalized(task)}`, this.pipelineFunctions[task]]),
        ),
        PipelineStarter: this.starter,
        PipelineUnzip: this.unzip,
        PaymentsReconcile: this.paymentsReconciler,
        CountersRecount: this.countersRecounter,
        NotificationsSweep: this.notificationsSweeper,
        EventDeletion: this.eventDeletionSlice,
        CountersRecountSlice: this.counterRecountSlice,
        FaceIndexingSlice: this.faceIndexingSlice,
        PreflightRun: this.preflightFunction,
      },
      api: this.api,
      metricsNamespace: environment.METRICS_NAMESPACE,
      email: alarmEmailFrom(this),
    });

    this.admin = new AdminBootstrap(this, "AdminBootstrap", {
      email: adminEmailFrom(this),
      entry: entries.adminBootstrap,
      bundles,
      environment,
      table,
    });

    this.preflight = new Preflight(this, "Preflight", {
      probe: this.preflightFunction,
      admin: this.httpFunctions.admin,
      topic: this.alarms.topic,
      // Everything else in the stack, built by now: a deploy's run checks the deploy as a whole, so
      // it waits for every change (a function's code or grants, a route, the site's files) to land.
      executeAfter: this.node.children.filter((child) => child instanceof Construct),
    });

    new CfnOutput(this, "SiteUrl", { value: `https://${siteDomain}` });
    if (domain) {
      new CfnOutput(this, "DomainTarget", {
        description: `Point ${domain.domainName} here: a CNAME record, or a Route 53 alias to the distribution`,
        value: this.site.distribution.distributionDomainName,
      });
    }
    new CfnOutput(this, "DistributionId", { value: this.site.distribution.distributionId });
    new CfnOutput(this, "ApiEndpoint", { value: this.api.apiEndpoint });
    new CfnOutput(this, "StateMachineArn", { value: this.pipeline.stateMachine.stateMachineArn });
    new CfnOutput(this, "DeadLetterQueueUrl", { value: this.pipeline.deadLetterQueue.queueUrl });
    new CfnOutput(this, "AlarmTopicArn", {
      description:
        "SNS topic of the alarms (dead letters, failed executions and photos, ZIP imports, function errors and " +
        "throttles, API 5xx, preflight RED)",
      value: this.alarms.topic.topicArn,
    });
    new CfnOutput(this, "WompiKeysSecretName", {
      description: "Secrets Manager secret where ops store the Wompi keys (docs/payments.md)",
      value: this.wompiKeys.secretName,
    });
    new CfnOutput(this, "DriveSecretName", {
      description: "Secrets Manager secret where ops store Google Drive's OAuth client (docs/uploads.md)",
      value: this.driveSecret.secretName,
    });
    new CfnOutput(this, "PreflightFunctionName", {
      description:
        "Lambda function of the preflight: runs it by hand (docs/deploy.md, Preflight); its log says why a run was RED",
      value: this.preflightFunction.fn.functionName,
    });
    new CfnOutput(this, "AdminCredentialsSecretName", {
      description: "Secrets Manager secret with the first admin's email and initial password",
      value: this.admin.secretName,
    });
  }
}

function byName<K extends string, V>(names: readonly K[], make: (name: K) => V): Record<K, V> {
  return Object.fromEntries(names.map((name) => [name, make(name)])) as Record<K, V>;
}

/** `events` → `Events`: construct ids are PascalCase. */
const capitalized = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
