import { randomUUID } from "node:crypto";
import { limits } from "@dorsal/shared";
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from "aws-lambda";
import { z } from "zod";
import { ensureAdmin } from "../app/auth";
import { getContainer } from "../compose";
import { createLogger, type Logger } from "../logger";
import { lambdaEntry } from "./middy";

/**
 * Custom resource that creates the first admin on AWS, the counterpart of what the local runtime
 * does on first start (functions/local/runtime.ts). The credentials come from a Secrets Manager
 * secret the stack generates (`{"email": …, "password": …}`, ARN in `ADMIN_SECRET_ARN`).
 * - Create and Update: `ensureAdmin`, which does nothing when the email already has an account, so
 *   a redeploy never resets a password.
 * - Delete: nothing; users are data and outlive the code stack.
 * This is the onEvent handler of a CDK provider (infra/lib/admin-bootstrap.ts): it returns the
 * physical id and the data, or throws, and the provider framework answers CloudFormation, on
 * failures and timeouts too.
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

/** What `Fn::GetAtt` reads off the resource. */
export interface AdminBootstrapData {
  AdminEmail: string;
  /** "true" when this run created the account, "false" when the email already had one. */
  AdminCreated: string;
}

/** The outside world of the handler; tests replace any of it. */
export interface AdminBootstrapPorts {
  readCredentials(): Promise<AdminCredentials>;
  ensureAdmin(credentials: AdminCredentials): Promise<{ created: boolean }>;
  logger: Logger;
}

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
  return async (
    event: CdkCustomResourceEvent<AdminBootstrapProperties>,
  ): Promise<CdkCustomResourceResponse<AdminBootstrapData>> => {
    if (event.RequestType === "Delete") return { PhysicalResourceId: event.PhysicalResourceId };
    const credentials = await ports.readCredentials();
    const { created } = await ports.ensureAdmin(credentials);
    ports.logger.info(created ? "first admin created" : "admin already exists, left unchanged", {
      email: credentials.email,
      requestType: event.RequestType,
    });
    return {
      // Kept on Update: a new id would make CloudFormation delete the old resource.
      PhysicalResourceId: event.RequestType === "Create" ? `admin-bootstrap-${randomUUID()}` : event.PhysicalResourceId,
      Data: { AdminEmail: credentials.email, AdminCreated: String(created) },
    };
  };
}

async function readCredentialsFromSecret(): Promise<AdminCredentials> {
  const { adminSecret } = await getContainer();
  if (!adminSecret) throw new Error("ADMIN_SECRET_ARN is not set for this function");
  return parseAdminCredentials(await adminSecret());
}

export const handler = lambdaEntry(
  "admin bootstrap",
  createAdminBootstrapHandler({
    readCredentials: readCredentialsFromSecret,
    ensureAdmin: async (credentials) => ensureAdmin((await getContainer()).deps, credentials),
    logger: createLogger("info"),
  }),
);
