import { randomUUID } from "node:crypto";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { limits } from "@dorsal/shared";
import type { CloudFormationCustomResourceEvent, Context } from "aws-lambda";
import { z } from "zod";
import { ensureAdmin } from "../app/auth";
import { getContainer } from "../compose";
import { createLogger, type Logger } from "../logger";

/**
 * Custom resource that creates the first admin on AWS, the counterpart of what the local runtime
 * does on first start (functions/local/main.ts). The credentials come from a Secrets Manager
 * secret the stack generates (`{"email": …, "password": …}`, ARN in `ADMIN_SECRET_ARN`).
 * - Create and Update: `ensureAdmin`, which does nothing when the email already has an account, so
 *   a redeploy never resets a password.
 * - Delete: nothing; users are data and outlive the code stack.
 * CloudFormation gets an answer on every path, failures and timeouts included.
 */

/**
 * The custom resource's properties. The handler does not read them: the secret's ARN is there so
 * that a new secret (a new `adminEmail` replaces it) makes CloudFormation send an Update.
 */
export interface AdminBootstrapProperties {
  AdminSecretArn: string;
}

export interface AdminCredentials {
  email: string;
  password: string;
}

/** What CloudFormation expects at the presigned ResponseURL. */
export interface CustomResourceResponse {
  Status: "SUCCESS" | "FAILED";
  Reason?: string;
  PhysicalResourceId: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  Data?: Record<string, string>;
}

/** The outside world of the handler; tests replace any of it. */
export interface AdminBootstrapPorts {
  readCredentials(): Promise<AdminCredentials>;
  ensureAdmin(credentials: AdminCredentials): Promise<{ created: boolean }>;
  respond(url: string, response: CustomResourceResponse): Promise<void>;
  logger: Logger;
}

/** Kept for the answer itself when the work runs up against the function's timeout. */
const answerMarginMs = 3_000;
/** CloudFormation rejects response bodies over 4 KiB. */
const maxReasonLength = 1_000;

const secretShape = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  // Sign-in refuses longer passwords, so a longer one would lock the admin out.
  password: z.string().min(limits.passwordMinLength).max(limits.passwordMaxLength),
});

/** Parses the secret's JSON. Errors name the fields, never their values. */
export function parseAdminCredentials(secretString: string): AdminCredentials {
  let json: unknown;
  try {
    json = JSON.parse(secretString);
  } catch {
    throw new Error("The admin secret is not JSON");
  }
  const parsed = secretShape.safeParse(json);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join(".") || "(secret)"))];
  throw new Error(`The admin secret has no valid ${fields.join(", ")}`);
}

export function createAdminBootstrapHandler(ports: AdminBootstrapPorts) {
  async function apply(event: CloudFormationCustomResourceEvent): Promise<Record<string, string> | undefined> {
    if (event.RequestType === "Delete") return undefined;
    const credentials = await ports.readCredentials();
    const { created } = await ports.ensureAdmin(credentials);
    ports.logger.info(created ? "first admin created" : "admin already exists, left unchanged", {
      email: credentials.email,
      requestType: event.RequestType,
    });
    return { AdminEmail: credentials.email, AdminCreated: String(created) };
  }

  return async (
    event: CloudFormationCustomResourceEvent,
    context: Pick<Context, "getRemainingTimeInMillis" | "logStreamName">,
  ): Promise<void> => {
    const physicalResourceId =
      "PhysicalResourceId" in event ? event.PhysicalResourceId : `admin-bootstrap-${randomUUID()}`;
    let outcome: Pick<CustomResourceResponse, "Status" | "Reason" | "Data">;
    try {
      const budget = Math.max(context.getRemainingTimeInMillis() - answerMarginMs, 0);
      const data = await withDeadline(apply(event), budget);
      outcome = { Status: "SUCCESS", ...(data ? { Data: data } : {}) };
    } catch (error) {
      // The error itself as data, so the logger writes its name, message and stack.
      ports.logger.error(`admin bootstrap ${event.RequestType} failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      const reason = `${message} (CloudWatch log stream ${context.logStreamName})`;
      outcome = { Status: "FAILED", Reason: reason.slice(0, maxReasonLength) };
    }
    await ports.respond(event.ResponseURL, {
      ...outcome,
      PhysicalResourceId: physicalResourceId,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    });
  };
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No result within ${ms} ms; the function timed out`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * PUTs the answer to CloudFormation's presigned URL. A rejected or failed PUT throws, so Lambda
 * retries the (asynchronous) invocation; ensureAdmin is idempotent, so a retry is harmless.
 */
export async function sendResponse(url: string, response: CustomResourceResponse): Promise<void> {
  const result = await fetch(url, {
    method: "PUT",
    // The presigned URL was signed without a content type.
    headers: { "content-type": "" },
    body: JSON.stringify(response),
  });
  if (!result.ok) throw new Error(`CloudFormation response rejected: ${result.status} ${await result.text()}`);
}

let secrets: SecretsManagerClient | undefined;

async function readCredentialsFromSecret(): Promise<AdminCredentials> {
  const secretId = process.env.ADMIN_SECRET_ARN;
  if (!secretId) throw new Error("ADMIN_SECRET_ARN is not set for this function");
  secrets ??= new SecretsManagerClient({});
  const out = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!out.SecretString) throw new Error("The admin secret has no string value");
  return parseAdminCredentials(out.SecretString);
}

export const handler = createAdminBootstrapHandler({
  readCredentials: readCredentialsFromSecret,
  ensureAdmin: async (credentials) => ensureAdmin((await getContainer()).deps, credentials),
  respond: sendResponse,
  logger: createLogger("info"),
});
