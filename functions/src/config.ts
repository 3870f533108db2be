import { limits } from "@dorsal/shared";
import { parseMailbox } from "@dorsal/shared/mail-texts";
import { z } from "zod";

/** The sender of every email: `fotos@example.co` or `Fotos Dorsal <fotos@example.co>`. */
const mailFrom = z
  .string()
  .trim()
  .refine((value) => parseMailbox(value) !== null, "debe ser un correo, o «Nombre <correo>»");

/**
 * Every setting the functions read, parsed once. A missing or invalid variable stops the process
 * with one message that names all of them, instead of failing later on first use.
 */
const common = {
  AWS_REGION: z.string().min(1).default("us-east-1"),
  TABLE_NAME: z.string().min(1),
  /**
   * The index gsi1 queries go to, while a deployment moves them to a new one (docs/deploy.md,
   * "Lean indexes"); the schema's (table-schema.ts) when unset.
   */
  GSI1_INDEX_NAME: z.string().min(3).optional(),
  ORIGINALS_BUCKET: z.string().min(3),
  DERIVED_BUCKET: z.string().min(3),
  JWT_ISSUER: z.string().min(1).default("dorsal"),
  /** Lifetime of a session token. */
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(12 * 3600),
  /** Lifetime of image URLs handed to the browser (thumbnails, web copies). */
  IMAGE_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86400)
    .default(3600),
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(3600),
  /** Largest ZIP accepted for import (spec §9: 2 GB), checked on the declared and on the stored size. */
  ZIP_MAX_BYTES: z.coerce.number().int().positive().default(limits.zipMaxBytes),
  /** The organizer's 10-digit support number for payments by transfer or wallet (spec §2.6); WhatsApp adds 57. */
  SUPPORT_PHONE: z
    .string()
    .regex(/^\d{10}$/, "debe tener 10 dígitos")
    .optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /**
   * 'Avísame': a bib's subscribers are emailed once no new photo of it arrived for this long
   * (docs/features.md#avísame-cuando-estén-mis-fotos).
   */
  NOTIFY_QUIET_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Pending sales older than this are looked up at the payment provider (docs/payments.md). */
  PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Wompi's hosted checkout and API; by default Wompi's own (sandbox or production API, as the keys say). */
  WOMPI_CHECKOUT_URL: z.url().optional(),
  WOMPI_API_URL: z.url().optional(),
  /** Google's OAuth and Drive v3 endpoints by default; the local runtime points them at its stand-in. */
  DRIVE_AUTHORIZE_URL: z.url().optional(),
  DRIVE_TOKEN_URL: z.url().optional(),
  DRIVE_API_URL: z.url().optional(),
};

const awsConfig = z.object({
  DORSAL_RUNTIME: z.literal("aws"),
  ...common,
  /** Only the pipeline starter needs it (the task functions are part of the state machine). */
  STATE_MACHINE_ARN: z.string().startsWith("arn:").optional(),
  /** The event-deletion workflow: set on the functions that start or resume deletions. */
  DELETION_STATE_MACHINE_ARN: z.string().startsWith("arn:").optional(),
  /** The counter-recount workflow: set on the hourly recount, which starts one per changed event. */
  RECOUNT_STATE_MACHINE_ARN: z.string().startsWith("arn:").optional(),
  /** Selfie search's indexing of an event's existing photos: set on the events function, which starts it. */
  FACE_INDEXING_STATE_MACHINE_ARN: z.string().startsWith("arn:").optional(),
  /** Secrets Manager secret holding the JWT signing key as a private JWK: the sign-in function's only. */
  JWT_KEY_SECRET_ARN: z.string().startsWith("arn:").optional(),
  /** What CloudFront sends in `x-origin-verify` (HTTP functions only): requests without it are refused. */
  ORIGIN_VERIFY_SECRET: z.string().min(32).optional(),
  /** The JWT key's public half as JSON (`kty`, `n`, `e`, `kid`): how every function checks a session. */
  JWT_PUBLIC_JWK: z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "no es JSON" });
        return z.NEVER;
      }
    })
    .pipe(z.object({ kty: z.literal("RSA"), n: z.string().min(1), e: z.string().min(1), kid: z.string().min(1) })),
  CLOUDFRONT_DOMAIN: z.string().min(1),
  CLOUDFRONT_KEY_PAIR_ID: z.string().min(1),
  CLOUDFRONT_PRIVATE_KEY_SECRET_ARN: z.string().startsWith("arn:"),
  VISION_ENGINE: z.enum(["rekognition", "local"]).default("rekognition"),
  /** Secrets Manager secret with the Wompi keys as JSON (sales function only; ops fill it in, docs/payments.md). */
  WOMPI_SECRET_ARN: z.string().startsWith("arn:").optional(),
  /**
   * Secrets Manager secret with the Google OAuth client and the tokens' sealing key as JSON
   * (`clientId`, `clientSecret`, `tokenKey`; the drive and unzip functions only; docs/uploads.md).
   */
  DRIVE_SECRET_ARN: z.string().startsWith("arn:").optional(),
  /** CloudWatch namespace of the dashboard's metrics: one per stack, so two deployments never mix. */
  METRICS_NAMESPACE: z.string().min(1).default("Dorsal"),
  /** The queue of S3 notifications the starter drains: the dashboard's count of photos waiting to start. */
  START_QUEUE_URL: z.url().optional(),
  /** The stack the function belongs to (the preflight only): a deploy's run is skipped while it rolls back. */
  STACK_ID: z.string().startsWith("arn:").optional(),
  /** The preflight function, which the admin function invokes for /preflight's runs (infra/lib/preflight.ts). */
  PREFLIGHT_FUNCTION_NAME: z.string().min(1).optional(),
  /** The first admin's credentials as JSON (the admin-bootstrap custom resource only; infra/lib/admin-bootstrap.ts). */
  ADMIN_SECRET_ARN: z.string().startsWith("arn:").optional(),
  /**
   * A sender verified in Amazon SES (the `mailFrom` context value; only the functions that send get
   * it). Without it nothing is emailed, and every action says its email was not sent.
   */
  MAIL_FROM: mailFrom.optional(),
});

const localConfig = z.object({
  DORSAL_RUNTIME: z.literal("local"),
  ...common,
  DYNAMODB_ENDPOINT: z.url(),
  S3_ENDPOINT: z.url(),
  DATA_DIR: z.string().min(1),
  VISION_ENGINE: z.enum(["rekognition", "local"]).default("local"),
  /** Worker threads for local recognition; one intra-op thread each. Defaults to one per core. */
  OCR_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
  /** Pipeline executions the in-process queue runs at once: 3 kept 2 cores busier than 2 (bench:ingest). */
  PIPELINE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
  /** Real Wompi keys; without them the runtime fills in its sandbox's (functions/local/wompi-sandbox.ts). */
  WOMPI_PUBLIC_KEY: z.string().min(1).optional(),
  WOMPI_PRIVATE_KEY: z.string().min(1).optional(),
  WOMPI_INTEGRITY_SECRET: z.string().min(1).optional(),
  WOMPI_EVENTS_SECRET: z.string().min(1).optional(),
  /** A Google OAuth client; without it the runtime fills in its drive stand-in's (functions/local/drive-sandbox.ts). */
  GOOGLE_DRIVE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_DRIVE_CLIENT_SECRET: z.string().min(1).optional(),
  /**
   * Fault injection for the crash tests, never set otherwise: a ZIP's extraction stops for good after
   * this many entries (the photos already extracted go on being processed), so a kill lands mid-import
   * however fast the machine extracts.
   */
  FAULT_HOLD_ZIP_AFTER_ENTRIES: z.coerce.number().int().min(1).optional(),
  /** Fault injection for the crash tests, never set otherwise: the process kills itself there (app/faults.ts). */
  FAULT_KILL_AT: z.enum(["sale-paid", "event-deletion-page"]).optional(),
  /** The sender the local outbox writes. */
  MAIL_FROM: mailFrom.default("Dorsal <no-responder@dorsal.local>"),
  /**
   * The origin browsers use (the runtime passes its PUBLIC_URL): where emailed links point. Never the
   * request's Origin, which whoever calls chooses.
   */
  PUBLIC_URL: z.url().default("http://localhost:3000"),
});

export const configSchema = z.discriminatedUnion("DORSAL_RUNTIME", [awsConfig, localConfig]);
export type Config = z.infer<typeof configSchema>;
export type LocalConfig = z.infer<typeof localConfig>;
export type AwsConfig = z.infer<typeof awsConfig>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse({ DORSAL_RUNTIME: "aws", ...env });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join(".") || "(config)"}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
}
