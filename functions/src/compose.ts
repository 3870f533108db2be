import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { SFNClient } from "@aws-sdk/client-sfn";
import { exportJWK, generateKeyPair } from "jose";
import { createCloudFrontUrlSigner } from "./adapters/aws/cloudfront-url-signer";
import { createCloudWatchMetrics } from "./adapters/aws/cloudwatch-metrics";
import { createDynamoTable, type DocumentSender, documentClientSender } from "./adapters/aws/dynamodb-table";
import { createS3ObjectStore } from "./adapters/aws/s3-object-store";
import { createPresignedUrlSigner } from "./adapters/aws/s3-presigned-url-signer";
import { createSfnBackgroundJobs, createSfnPipelineStarter } from "./adapters/aws/sfn-starters";
import type { UrlCacheReport } from "./adapters/aws/signed-url-cache";
import { createSqsPipelineQueue } from "./adapters/aws/sqs-pipeline-queue";
import { createGoogleDrive, driveEndpoints, parseDriveSecret } from "./adapters/drive/google-drive";
import type { LocalBackgroundJobs } from "./adapters/local/local-jobs";
import type { LocalPipeline } from "./adapters/local/local-pipeline";
import { type PartitionWrites, readCachedTable } from "./adapters/local/read-cached-table";
import { localStorageCredentials } from "./adapters/local/storage-credentials";
import { createMemoryMetrics } from "./adapters/memory/metrics";
import { createMemoryObjectStore } from "./adapters/memory/object-store";
import { createMemoryTable } from "./adapters/memory/table";
import { createWompiGateway, parseWompiKeys } from "./adapters/payments/wompi";
import { createIds, systemClock } from "./adapters/system/system";
import type { Deps } from "./app/deps";
import { deleteEventSlice, resumeEventDeletions } from "./app/event-deletion";
import { faceIndexingSlice, resumeFaceIndexing } from "./app/face-search";
import { createPipelineTasks, type PipelineTasks } from "./app/pipeline";
import { recountEventStats, recountSlice, sweepUnstartedUploads } from "./app/processing";
import { recountSalesMonths } from "./app/sales-report";
import { faceCollectionPrefix, parseOriginalKey } from "./app/storage-paths";
import { createTokenService, type PrivateJwk, type PublicJwk, publicJwkOf } from "./app/tokens";
import { type AwsConfig, type Config, type LocalConfig, parseConfig } from "./config";
import { createApplicationRepository } from "./data/applications";
import { createAssignmentRepository } from "./data/assignments";
import { createBibLinkRepository } from "./data/bib-links";
import { createCredentialRepository } from "./data/credentials";
import { createDownloadCodeRepository } from "./data/download-codes";
import { createDownloadCountRepository } from "./data/download-counts";
import { createDriveRepository } from "./data/drive";
import { createEventConfigRepository } from "./data/event-configs";
import { createEventDeletionRepository } from "./data/event-deletion";
import { countsGeneration, createEventRepository } from "./data/events";
import { createFaceIndexingRepository } from "./data/face-indexing";
import { createLoginAttemptRepository } from "./data/login-attempts";
import { createNotificationRepository } from "./data/notifications";
import { createParticipantRepository } from "./data/participants";
import { createPhotoFacesRepository, type PhotoFacesRepository } from "./data/photo-faces";
import { createPhotoRepository } from "./data/photos";
import { createPreflightRunRepository } from "./data/preflight-runs";
import { createPricingRepository } from "./data/pricing";
import { createSalesRepository } from "./data/sales";
import { createSettingsRepository } from "./data/settings";
import { createStartListRepository } from "./data/start-lists";
import { servingIndexNames } from "./data/table-schema";
import { createUploadRepository } from "./data/uploads";
import { createUserRepository } from "./data/users";
import { createZipBatchRepository } from "./data/zip-batches";
import { jobSliceMs } from "./jobs/definitions";
import { createLogger, type Logger } from "./logger";
import { memo } from "./memo";
import type { BackgroundJobs } from "./ports/background-jobs";
import type { Clock } from "./ports/clock";
import type { Drive } from "./ports/drive";
import type { FaceSearch } from "./ports/face-search";
import type { Ids } from "./ports/ids";
import type { Mailer } from "./ports/mail";
import type { Metrics } from "./ports/metrics";
import type { ObjectStore } from "./ports/object-store";
import type { PaymentGateway } from "./ports/payments";
import type { PipelineQueue, PipelineStarter } from "./ports/pipeline";
import type { PreflightLauncher, QuotaReader } from "./ports/preflight";
import type { UrlSigner } from "./ports/url-signer";
import type { Vision } from "./ports/vision";

/**
 * THE composition root: configuration in, adapters built once, use-case dependencies out. Lambda
 * handlers and the local runtime both come through here; nothing else knows which adapters exist.
 */
export interface Container {
  deps: Deps;
  logger: Logger;
  pipelineTasks: PipelineTasks;
  /** Only in the local runtime: the in-process pipeline, for stats and graceful shutdown. */
  localPipeline?: LocalPipeline;
  /** Only in the local runtime: the in-process background workflows. */
  localJobs?: LocalBackgroundJobs;
  /** Only on AWS: the first admin's credentials, from the secret the stack generates (JSON). */
  adminSecret?: () => Promise<string>;
  /**
   * Only on AWS, for the preflight: whether its stack is rolling back now. CloudFormation's
   * rollback updates the deploy's trigger too, which runs the previous version against a stack
   * half rolled back; a RED then would make the rollback fail.
   */
  stackRollingBack?: () => Promise<boolean>;
  close(): Promise<void>;
}

// s3rver corrupts streamed bodies with the default checksums, and phones can't satisfy checksum
// parameters in presigned URLs; S3 itself is fine without them.
const s3ChecksumSettings = {
  requestChecksumCalculation: "WHEN_REQUIRED",
  responseChecksumValidation: "WHEN_REQUIRED",
} as const;

/** Where no payment keys are configured, checkout answers 503 and the rest of the product works. */
const unconfiguredPayments = (why: string): PaymentGateway => {
  const refuse = () => Promise.reject(new Error(why));
  return {
    checkoutUrl: refuse,
    verifyEvent: async () => null,
    lookup: refuse,
    lookupByReference: refuse,
    selfCheck: refuse,
  };
};

/** Where no sender is configured, every email fails with the reason, and the action that sent it goes on. */
const unconfiguredMail = (why: string): Mailer => ({ outbox: null, send: () => Promise.reject(new Error(why)) });

/** Where nothing can run a preflight in the background, /preflight says so instead of starting one. */
const noPreflightLauncher = (why: string): PreflightLauncher => ({ launch: () => Promise.reject(new Error(why)) });

/** The local runtime's limits stand where AWS has quotas. */
const localQuotas = (config: LocalConfig): QuotaReader => ({
  read: async () => ({
    platform: "local",
    pipelineConcurrency: config.PIPELINE_CONCURRENCY,
    ocrWorkers: config.OCR_WORKERS ?? availableParallelism(),
  }),
});

/** Where no queue can be asked (no START_QUEUE_URL, the in-memory composition), nobody guesses. */
const unknownQueue: PipelineQueue = {
  state: async () => ({ waiting: null, running: null, oldestWaitingSince: null }),
};

/** The signed URL cache's figures, as the dashboard reads them back. */
const urlCacheReporter =
  (metrics: Metrics) =>
  ({ hits, misses, evictions, entries, bytes }: UrlCacheReport) => {
    metrics.put("UrlCacheHits", hits);
    metrics.put("UrlCacheMisses", misses);
    metrics.put("UrlCacheEvictions", evictions);
    metrics.put("UrlCacheEntries", entries);
    metrics.put("UrlCacheBytes", bytes);
  };

/**
 * What the embedded runtime hands the local composition besides its configuration: its stand-ins
 * called in process. Without them the composition reaches the stand-ins at their endpoints.
 */
export interface LocalServices {
  dynamo?: {
    /** dynalite's store, called without HTTP (functions/local/dynalite-in-process.ts). */
    send: DocumentSender;
    /** Every write the store makes (functions/local/dynalite-write-clock.ts): reads are cached until one touches them. */
    writes: { of(tableName: string): PartitionWrites };
  };
  /**
   * s3rver's file store, called without HTTP (functions/local/s3rver-in-process.ts); it is given
   * the S3 adapter for what only a URL can do (the browser's uploads).
   */
  objects?: (presigning: ObjectStore) => ObjectStore;
  /** Runs a recorded preflight in the runtime's background, as Lambda would asynchronously. */
  preflight?: PreflightLauncher;
  /**
   * The process before this one stopped cleanly, every write finished: no counter can be a write
   * behind, so the start-up recount is skipped (but for counters the code added since).
   */
  stoppedCleanly?: boolean;
}

export async function compose(config: Config, local: LocalServices = {}): Promise<Container> {
  return config.DORSAL_RUNTIME === "aws" ? composeAws(config) : composeLocal(config, local);
}

async function composeAws(config: AwsConfig): Promise<Container> {
  const logger = createLogger(config.LOG_LEVEL);
  const clock = systemClock;
  const region = config.AWS_REGION;
  const buckets = { originals: config.ORIGINALS_BUCKET, derived: config.DERIVED_BUCKET };
  const s3 = new S3Client({ region, ...s3ChecksumSettings });
  const secrets = new SecretsManagerClient({ region });
  const readSecret = async (arn: string) => {
    const out = await secrets.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error(`Secret ${arn} has no string value`);
    return out.SecretString;
  };
  const secret = (arn: string) => memo(() => readSecret(arn));
  const cloudFrontKey = secret(config.CLOUDFRONT_PRIVATE_KEY_SECRET_ARN);
  const cloudWatch = memo(async () => new (await import("@aws-sdk/client-cloudwatch")).CloudWatchClient({ region }));
  const metrics = createCloudWatchMetrics(cloudWatch, config.METRICS_NAMESPACE);
  const stateMachineArn = config.STATE_MACHINE_ARN;
  const sfn = memo(async () => new SFNClient({ region }));
  const pipeline: PipelineStarter = stateMachineArn
    ? { start: async (input) => createSfnPipelineStarter(await sfn(), stateMachineArn).start(input) }
    : {
        start: () => Promise.reject(new Error("STATE_MACHINE_ARN is not set for this function")),
      };
  const jobs = createSfnBackgroundJobs(sfn, {
    eventDeletion: config.DELETION_STATE_MACHINE_ARN,
    counterRecount: config.RECOUNT_STATE_MACHINE_ARN,
    faceIndexing: config.FACE_INDEXING_STATE_MACHINE_ARN,
  });
  const vision = memo(async (): Promise<Vision> => {
    const { RekognitionClient } = await import("@aws-sdk/client-rekognition");
    const { createRekognitionVision } = await import("./adapters/aws/rekognition");
    const client = new RekognitionClient({ region });
    return { ...createRekognitionVision(client), close: async () => client.destroy() };
  });
  const faceSearch = rekognitionFaceSearch(region, config.TABLE_NAME);
  const jwtSecretArn = config.JWT_KEY_SECRET_ARN;
  const wompiSecretArn = config.WOMPI_SECRET_ARN;
  const adminSecretArn = config.ADMIN_SECRET_ARN;
  const driveSecretArn = config.DRIVE_SECRET_ARN;
  // Read again until it parses: ops fill in the OAuth client after the first deploy.
  const driveSecret = driveSecretArn ? memo(async () => parseDriveSecret(await readSecret(driveSecretArn))) : undefined;
  const preflightFunction = config.PREFLIGHT_FUNCTION_NAME;
  const mailFrom = config.MAIL_FROM;
  const ses = mailFrom
    ? memo(async () => {
        const [{ SESv2Client }, { createSesMailer }] = await Promise.all([
          import("@aws-sdk/client-sesv2"),
          import("./adapters/aws/ses-mailer"),
        ]);
        return createSesMailer(new SESv2Client({ region }), mailFrom);
      })
    : undefined;
  const siteUrl = `https://${config.CLOUDFRONT_DOMAIN}`;
  const container = await assemble({
    config,
    logger,
    // Requests reach the function through CloudFront, so their headers name API Gateway.
    siteOrigin: () => siteUrl,
    siteUrl,
    mail: ses
      ? { outbox: null, send: async (message) => (await ses()).send(message) }
      : unconfiguredMail("MAIL_FROM is not set for this function"),
    table: createDynamoTable(documentClientSender(new DynamoDBClient({ region })), config.TABLE_NAME, {
      ...servingIndexNames,
      ...(config.GSI1_INDEX_NAME ? { gsi1: config.GSI1_INDEX_NAME } : {}),
    }),
    objects: createS3ObjectStore(s3, buckets),
    urls: createCloudFrontUrlSigner({
      domain: config.CLOUDFRONT_DOMAIN,
      keyPairId: config.CLOUDFRONT_KEY_PAIR_ID,
      privateKey: cloudFrontKey,
      clock: () => clock.now(),
      report: urlCacheReporter(metrics),
    }),
    metrics,
    pipeline,
    jobs,
    pipelineQueue: config.START_QUEUE_URL
      ? createSqsPipelineQueue(
          { sqs: memo(async () => new (await import("@aws-sdk/client-sqs")).SQSClient({ region })), cloudWatch },
          config.START_QUEUE_URL,
          () => clock.now(),
        )
      : unknownQueue,
    vision,
    faceSearch,
    verificationKey: async () => config.JWT_PUBLIC_JWK,
    signingKey: jwtSecretArn ? async () => JSON.parse(await readSecret(jwtSecretArn)) as PrivateJwk : undefined,
    payments: wompiSecretArn
      ? createWompiGateway({
          checkoutUrl: config.WOMPI_CHECKOUT_URL,
          apiUrl: config.WOMPI_API_URL,
          // Read again until it parses: the placeholder the stack creates is replaced by ops later.
          keys: memo(async () => parseWompiKeys(await readSecret(wompiSecretArn))),
        })
      : unconfiguredPayments("WOMPI_SECRET_ARN is not set for this function"),
    drive: driveSecret
      ? {
          api: async () => createGoogleDrive(await driveSecret(), driveEndpoints(config)),
          sealKey: async () => (await driveSecret()).tokenKey,
        }
      : null,
    preflight: preflightFunction
      ? {
          launch: async (runId) => {
            const { LambdaClient } = await import("@aws-sdk/client-lambda");
            const { createLambdaPreflightLauncher } = await import("./adapters/aws/lambda-preflight-launcher");
            await createLambdaPreflightLauncher(new LambdaClient({ region }), preflightFunction).launch(runId);
          },
        }
      : noPreflightLauncher("PREFLIGHT_FUNCTION_NAME is not set for this function"),
    quotas: {
      read: async () => {
        const { LambdaClient } = await import("@aws-sdk/client-lambda");
        const { ServiceQuotasClient } = await import("@aws-sdk/client-service-quotas");
        const { createAwsQuotaReader } = await import("./adapters/aws/aws-quotas");
        return createAwsQuotaReader(new LambdaClient({ region }), new ServiceQuotasClient({ region })).read();
      },
    },
  });
  const stackId = config.STACK_ID;
  return {
    ...container,
    ...(adminSecretArn ? { adminSecret: () => readSecret(adminSecretArn) } : {}),
    ...(stackId
      ? {
          stackRollingBack: async () => {
            const { CloudFormationClient, DescribeStacksCommand } = await import("@aws-sdk/client-cloudformation");
            const client = new CloudFormationClient({ region });
            const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackId }));
            client.destroy();
            return /ROLLBACK_IN_PROGRESS$/.test(Stacks?.[0]?.StackStatus ?? "");
          },
        }
      : {}),
  };
}

async function composeLocal(config: LocalConfig, local: LocalServices): Promise<Container> {
  const logger = createLogger(config.LOG_LEVEL);
  // The local object store answers only the runtime's own key pair; dynalite checks no signature
  // (its loopback endpoint refuses browsers instead: functions/local/storage.ts).
  const credentials = await localStorageCredentials(config.DATA_DIR);
  const region = config.AWS_REGION;
  const buckets = { originals: config.ORIGINALS_BUCKET, derived: config.DERIVED_BUCKET };
  const s3 = new S3Client({
    region,
    credentials,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: true,
    ...s3ChecksumSettings,
  });
  const localVision = memo(async () =>
    (await import("./adapters/local/local-vision")).createLocalVision({ workers: config.OCR_WORKERS }),
  );
  const vision = memo(async (): Promise<Vision> => {
    if (config.VISION_ENGINE === "rekognition") {
      const { RekognitionClient } = await import("@aws-sdk/client-rekognition");
      const { createRekognitionVision } = await import("./adapters/aws/rekognition");
      const client = new RekognitionClient({ region });
      return { ...createRekognitionVision(client), close: async () => client.destroy() };
    }
    return localVision();
  });
  const faceSearch =
    config.VISION_ENGINE === "rekognition"
      ? rekognitionFaceSearch(region, config.TABLE_NAME)
      : localFaceSearch(async () => (await localVision()).faces);
  let localPipeline: LocalPipeline | undefined;
  const pipeline: PipelineStarter = { start: (input) => requireLocalPipeline().start(input) };
  const requireLocalPipeline = () => {
    if (!localPipeline) throw new Error("The local pipeline is not running yet");
    return localPipeline;
  };
  let localJobs: LocalBackgroundJobs | undefined;
  const jobs: BackgroundJobs = {
    start: async (job, input) => {
      if (!localJobs) throw new Error("The local background jobs are not running yet");
      await localJobs.start(job, input);
    },
  };
  const s3Objects = createS3ObjectStore(s3, buckets);
  // One process does all the work locally, so its memory holds every measurement.
  const metrics = createMemoryMetrics(systemClock);
  // Imported here only: Lambda bundles keep nodemailer in a chunk they never load.
  const mail = (await import("./adapters/local/mail-outbox")).createMailOutbox({
    dir: path.join(config.DATA_DIR, "outbox"),
    from: config.MAIL_FROM,
    clock: () => systemClock.now(),
  });
  const container = await assemble({
    config,
    logger,
    siteOrigin: requestOrigin,
    siteUrl: config.PUBLIC_URL,
    mail,
    table: local.dynamo
      ? readCachedTable(
          createDynamoTable(local.dynamo.send, config.TABLE_NAME),
          local.dynamo.writes.of(config.TABLE_NAME),
        )
      : createDynamoTable(
          documentClientSender(new DynamoDBClient({ region, credentials, endpoint: config.DYNAMODB_ENDPOINT })),
          config.TABLE_NAME,
        ),
    objects: local.objects ? local.objects(s3Objects) : s3Objects,
    urls: createPresignedUrlSigner(s3, config.S3_ENDPOINT, buckets, undefined, urlCacheReporter(metrics)),
    metrics,
    pipeline,
    jobs,
    pipelineQueue: {
      state: async () => {
        const stats = requireLocalPipeline().stats();
        return {
          waiting: stats.queued,
          running: stats.running,
          oldestWaitingSince: stats.oldestQueuedAt === null ? null : new Date(stats.oldestQueuedAt),
        };
      },
    },
    vision,
    faceSearch,
    ...keyPair(() => localJwtKey(config.DATA_DIR)),
    payments: localPayments(config),
    drive: localDrive(config),
    preflight: local.preflight ?? noPreflightLauncher("no preflight launcher: start the runtime (npm start)"),
    quotas: localQuotas(config),
  });
  const { createLocalPipeline } = await import("./adapters/local/local-pipeline");
  localPipeline = createLocalPipeline({
    tasks: container.pipelineTasks,
    concurrency: config.PIPELINE_CONCURRENCY,
    logger,
    stateDir: path.join(config.DATA_DIR, "pipeline-queue"),
  });
  // What a killed process had accepted but not finished runs again (every step is idempotent)…
  const interrupted = await localPipeline.restore();
  // …once the counters a kill may have left one write behind are recounted from the photos (bib
  // links only for the events it was working on: a query per bib). After a clean stop none can be.
  const interruptedEvents = new Set(interrupted.flatMap((input) => parseOriginalKey(input.key)?.eventId ?? []));
  const events = await container.deps.events.list();
  const stats = await container.deps.events.stats(events.map((event) => event.id));
  for (const event of events) {
    // Counters added since the event's last full recount (countsGeneration) are counted once, with the links.
    const outdated = (stats.get(event.id)?.countsGeneration ?? 0) < countsGeneration;
    if (local.stoppedCleanly && !outdated) continue;
    await recountEventStats(container.deps, event.id, { links: interruptedEvents.has(event.id) || outdated });
  }
  // A sale made paid by a process killed before it counted the sale in its month.
  const salesMonths = await recountSalesMonths(container.deps);
  if (salesMonths.length > 0) logger.warn("sales figures recounted", { months: salesMonths });
  localPipeline.resume();
  // Then what it had stored but never queued (a storage event lost to the kill); the queue's own are skipped.
  const restored = localPipeline;
  const swept = await sweepUnstartedUploads(container.deps, { isQueued: (key) => restored.holds(key) });
  if (swept.started + swept.failed + swept.unreadable > 0) logger.info("start-up sweep", swept);
  const { createLocalBackgroundJobs } = await import("./adapters/local/local-jobs");
  localJobs = createLocalBackgroundJobs({
    slices: {
      eventDeletion: (input) => deleteEventSlice(container.deps, input, jobSliceMs.local),
      counterRecount: (input) => recountSlice(container.deps, input, jobSliceMs.local),
      faceIndexing: (input) => faceIndexingSlice(container.deps, input, jobSliceMs.local),
    },
    logger,
  });
  // Deletions a killed process left midway go on where their last slice got to.
  const resumed = await resumeEventDeletions(container.deps, { stalledMinutes: 0 });
  if (resumed.length > 0) logger.warn("event deletions resumed", { eventIds: resumed });
  // Likewise selfie search's indexing of an event's existing photos.
  const indexingResumed = await resumeFaceIndexing(container.deps, { stalledMinutes: 0 });
  if (indexingResumed.length > 0) logger.warn("face indexing resumed", { eventIds: indexingResumed });
  const closeBase = container.close;
  const startedJobs = localJobs;
  return {
    ...container,
    localPipeline,
    localJobs: startedJobs,
    async close() {
      await startedJobs.close();
      await localPipeline?.close();
      await closeBase();
    },
  };
}

/** Ports a use-case test replaces with its own fakes (adapters/memory/); the rest are real. */
export interface InMemoryFakes {
  clock?: Clock;
  ids?: Ids;
  vision?: Vision;
  faceSearch?: (photoFaces: PhotoFacesRepository) => FaceSearch;
  payments?: PaymentGateway;
  urls?: UrlSigner;
  mail?: Mailer;
  drive?: Drive;
}

/**
 * The local composition with the table and the object store held in memory and no pipeline
 * queue: the pipeline's steps are called directly (`pipelineTasks`). What it costs is the steps'
 * own work with no stand-in between them — bench:ingest's CPU limit; with `fakes`, the deps of
 * use-case tests. Nothing is kept; the endpoints and DATA_DIR of `config` are not used.
 */
export async function composeInMemory(config: LocalConfig, fakes: InMemoryFakes = {}): Promise<Container> {
  const refuse = (what: string) => () =>
    Promise.reject(new Error(`the in-memory composition has no ${what}: call its pipeline steps directly`));
  const { vision } = fakes;
  const localVision = memo(async () =>
    (await import("./adapters/local/local-vision")).createLocalVision({ workers: config.OCR_WORKERS }),
  );
  const refusingFaceSearch: FaceSearch = {
    descriptorModel: async () => undefined,
    indexPhoto: refuse("face search"),
    search: refuse("face search"),
    forget: refuse("face search"),
    removeEvent: refuse("face search"),
  };
  return assemble({
    config,
    logger: createLogger(config.LOG_LEVEL),
    siteOrigin: requestOrigin,
    siteUrl: config.PUBLIC_URL,
    mail: fakes.mail ?? unconfiguredMail("the in-memory composition sends no mail"),
    ...(fakes.clock ? { clock: fakes.clock } : {}),
    ...(fakes.ids ? { ids: fakes.ids } : {}),
    table: createMemoryTable(),
    objects: createMemoryObjectStore(),
    urls: fakes.urls ?? { signedGetUrl: refuse("image URLs") },
    metrics: createMemoryMetrics(fakes.clock ?? systemClock),
    pipeline: { start: refuse("pipeline queue") },
    jobs: { start: refuse("background jobs") },
    pipelineQueue: unknownQueue,
    vision: vision ? async () => vision : localVision,
    // A scripted vision cannot describe faces: its tests bring their own engine, or never search.
    faceSearch:
      fakes.faceSearch ??
      (vision ? () => refusingFaceSearch : localFaceSearch(async () => (await localVision()).faces)),
    ...keyPair(async () => {
      const { privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
      return { ...(await exportJWK(privateKey)), kid: "memory", alg: "RS256" as const };
    }),
    payments: fakes.payments ?? unconfiguredPayments("the in-memory composition takes no payments"),
    drive: fakes.drive ? { api: async () => fakes.drive as Drive, sealKey: memo(async () => randomBytes(32)) } : null,
    preflight: noPreflightLauncher("the in-memory composition runs no preflight"),
    quotas: localQuotas(config),
  });
}

/** Real Wompi when its keys are given, else the sandbox whose keys the embedded runtime fills in (functions/local/runtime.ts). */
function localPayments(config: LocalConfig): PaymentGateway {
  const { WOMPI_PUBLIC_KEY, WOMPI_PRIVATE_KEY, WOMPI_INTEGRITY_SECRET, WOMPI_EVENTS_SECRET } = config;
  if (!WOMPI_PUBLIC_KEY || !WOMPI_PRIVATE_KEY || !WOMPI_INTEGRITY_SECRET || !WOMPI_EVENTS_SECRET) {
    return unconfiguredPayments("WOMPI_* keys are not set");
  }
  const keys = {
    publicKey: WOMPI_PUBLIC_KEY,
    privateKey: WOMPI_PRIVATE_KEY,
    integritySecret: WOMPI_INTEGRITY_SECRET,
    eventsSecret: WOMPI_EVENTS_SECRET,
  };
  return createWompiGateway({
    checkoutUrl: config.WOMPI_CHECKOUT_URL,
    apiUrl: config.WOMPI_API_URL,
    keys: async () => keys,
  });
}

/** Google Drive when a client is given, else the stand-in whose client the embedded runtime fills in. */
function localDrive(config: LocalConfig): Deps["drive"] {
  const { GOOGLE_DRIVE_CLIENT_ID: clientId, GOOGLE_DRIVE_CLIENT_SECRET: clientSecret } = config;
  if (!clientId || !clientSecret) return null;
  const api = createGoogleDrive({ clientId, clientSecret }, driveEndpoints(config));
  return { api: async () => api, sealKey: memo(() => localSecretKey(config.DATA_DIR, "drive-tokens.key")) };
}

/** A random 256-bit key generated into the data dir on first use and kept across restarts. */
async function localSecretKey(dataDir: string, name: string): Promise<Buffer> {
  const file = path.join(dataDir, "keys", name);
  try {
    return Buffer.from(await readFile(file, "utf8"), "base64");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = randomBytes(32);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, key.toString("base64"), { mode: 0o600, flag: "wx" }).catch(async (error: unknown) => {
    // Another runtime of the same data dir wrote it first: that one is the key.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  return Buffer.from(await readFile(file, "utf8"), "base64");
}

/** One process that both signs and verifies (locally, everything runs in one). */
function keyPair(privateJwk: () => Promise<PrivateJwk>) {
  const signingKey = memo(privateJwk);
  return { signingKey, verificationKey: async () => publicJwkOf(await signingKey()) };
}

/** The local JWT signing key, generated into the data dir on first start and kept across restarts. */
async function localJwtKey(dataDir: string): Promise<PrivateJwk> {
  const file = path.join(dataDir, "keys", "jwt-private.json");
  try {
    return JSON.parse(await readFile(file, "utf8")) as PrivateJwk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const { privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${Date.now().toString(36)}`, alg: "RS256" as const };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
}

/** Locally the site is wherever the browser reached it (a phone on the LAN, or localhost). */
const requestOrigin: Deps["siteOrigin"] = ({ origin, host }) =>
  origin && URL.canParse(origin) ? new URL(origin).origin : `http://${host ?? "localhost"}`;

async function assemble(parts: {
  config: Config;
  logger: Logger;
  siteOrigin: Deps["siteOrigin"];
  siteUrl: string;
  mail: Mailer;
  /** Real time and randomness unless a use-case test brings its own. */
  clock?: Clock;
  ids?: Ids;
  table: Deps["table"];
  objects: Deps["objects"];
  urls: Deps["urls"];
  metrics: Metrics;
  pipeline: PipelineStarter;
  jobs: BackgroundJobs;
  pipelineQueue: PipelineQueue;
  vision: () => Promise<Vision>;
  /** Built over the table's store of face descriptors, which only the local engine uses. */
  faceSearch: (photoFaces: PhotoFacesRepository) => FaceSearch;
  verificationKey: () => Promise<PublicJwk>;
  /** Only where tokens are issued (in AWS, the sign-in function). */
  signingKey: (() => Promise<PrivateJwk>) | undefined;
  payments: PaymentGateway;
  drive: Deps["drive"];
  preflight: PreflightLauncher;
  quotas: QuotaReader;
}): Promise<Container> {
  const clock = parts.clock ?? systemClock;
  const ids = parts.ids ?? createIds(clock);
  const credentials = createCredentialRepository(parts.table, clock);
  const deps: Deps = {
    config: parts.config,
    clock,
    ids,
    table: parts.table,
    objects: parts.objects,
    urls: parts.urls,
    metrics: parts.metrics,
    pipeline: parts.pipeline,
    jobs: parts.jobs,
    pipelineQueue: parts.pipelineQueue,
    vision: parts.vision,
    faceSearch: parts.faceSearch(createPhotoFacesRepository(parts.table)),
    faceIndexing: createFaceIndexingRepository(parts.table),
    tokens: createTokenService({
      publicJwk: parts.verificationKey,
      privateJwk: parts.signingKey && memo(parts.signingKey),
      issuer: parts.config.JWT_ISSUER,
      ttlSeconds: parts.config.JWT_TTL_SECONDS,
      clock,
      sessionState: (userId) => credentials.sessionState(userId),
    }),
    users: createUserRepository(parts.table, ids, clock),
    credentials,
    loginAttempts: createLoginAttemptRepository(parts.table),
    settings: createSettingsRepository(parts.table),
    assignments: createAssignmentRepository(parts.table, ids, clock),
    events: createEventRepository(parts.table),
    eventConfigs: createEventConfigRepository(parts.table),
    startLists: createStartListRepository(parts.table),
    notifications: createNotificationRepository(parts.table),
    eventDeletion: createEventDeletionRepository(parts.table),
    photos: createPhotoRepository(parts.table),
    bibLinks: createBibLinkRepository(parts.table),
    participants: createParticipantRepository(parts.table),
    zipBatches: createZipBatchRepository(parts.table),
    uploads: createUploadRepository(parts.table),
    pricing: createPricingRepository(parts.table),
    applications: createApplicationRepository(parts.table),
    downloadCounts: createDownloadCountRepository(parts.table),
    downloadCodes: createDownloadCodeRepository(parts.table),
    sales: createSalesRepository(parts.table),
    payments: parts.payments,
    drive: parts.drive,
    drives: createDriveRepository(parts.table),
    preflightRuns: createPreflightRunRepository(parts.table, clock),
    preflight: parts.preflight,
    quotas: parts.quotas,
    siteOrigin: parts.siteOrigin,
    siteUrl: parts.siteUrl,
    mail: parts.mail,
    logger: parts.logger,
  };
  let visionStarted = false;
  const vision = async () => {
    visionStarted = true;
    return parts.vision();
  };
  deps.vision = vision;
  return {
    deps,
    logger: parts.logger,
    pipelineTasks: createPipelineTasks(deps),
    async close() {
      if (visionStarted) await (await parts.vision()).close();
    },
  };
}

/**
 * Rekognition's selfie search, one collection per event named after the table (so two deployments
 * in one account never share one); the client loads on first use, so functions that never search
 * or index never pay for it.
 */
function rekognitionFaceSearch(region: string, tableName: string): () => FaceSearch {
  return () =>
    lazyFaceSearch(async () => {
      const [{ RekognitionClient }, { createRekognitionFaceSearch }] = await Promise.all([
        import("@aws-sdk/client-rekognition"),
        import("./adapters/aws/rekognition-face-search"),
      ]);
      return createRekognitionFaceSearch(new RekognitionClient({ region }), {
        collectionPrefix: faceCollectionPrefix(tableName),
      });
    });
}

/** The local engine's selfie search over the face worker that detection already runs. */
function localFaceSearch(
  faces: () => Promise<import("./adapters/local/faces").LocalFaceDetector>,
): (photoFaces: PhotoFacesRepository) => FaceSearch {
  return (photoFaces) =>
    lazyFaceSearch(async () =>
      (await import("./adapters/local/faces/face-search")).createLocalFaceSearch({ describer: faces, photoFaces }),
    );
}

/** A face search whose engine is built on the first call. */
function lazyFaceSearch(build: () => Promise<FaceSearch>): FaceSearch {
  const engine = memo(build);
  return {
    descriptorModel: async () => (await engine()).descriptorModel(),
    indexPhoto: async (...args) => (await engine()).indexPhoto(...args),
    search: async (...args) => (await engine()).search(...args),
    forget: async (...args) => (await engine()).forget(...args),
    removeEvent: async (...args) => (await engine()).removeEvent(...args),
  };
}

/** How a handler reaches its container: Lambda's process-wide one, or the embedded runtime's own. */
export type ContainerLoader = () => Promise<Container>;

let current: Promise<Container> | undefined;

/** Lambda's container, built on first use from the environment (once per cold start). */
export function getContainer(): Promise<Container> {
  current ??= compose(parseConfig(process.env));
  return current;
}
