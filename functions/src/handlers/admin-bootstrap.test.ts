import type { CdkCustomResourceEvent, Context } from "aws-lambda";
import { describe, expect, it, vi } from "vitest";
import {
  type AdminBootstrapPorts,
  type AdminBootstrapProperties,
  type AdminCredentials,
  createAdminBootstrapHandler,
  handler,
  parseAdminCredentials,
} from "./admin-bootstrap";

const credentials: AdminCredentials = { email: "ops@org.co", password: "Abcdefghjkmnpqrstuvwxyz2" };
/** The secret as Secrets Manager holds it: the email as typed in the CDK context. */
const secretString = JSON.stringify({ email: " Ops@Org.co ", password: credentials.password });

// The events CDK's provider framework passes on to its onEvent function.
const base = {
  ServiceToken: "arn:aws:lambda:us-east-1:1:function:provider-framework-onEvent",
  ResponseURL: "https://cloudformation-custom-resource-response.example/put",
  StackId: "arn:aws:cloudformation:us-east-1:1:stack/DorsalStateless/x",
  RequestId: "request-1",
  LogicalResourceId: "AdminBootstrapAdmin",
  ResourceType: "Custom::DorsalAdminBootstrap",
  ResourceProperties: { ServiceToken: "arn:aws:lambda:x", AdminSecretArn: "arn:aws:secretsmanager:x" },
};
type Event = CdkCustomResourceEvent<AdminBootstrapProperties>;
const create = () => ({ ...base, RequestType: "Create" }) as Event;
const update = () =>
  ({
    ...base,
    RequestType: "Update",
    PhysicalResourceId: "admin-bootstrap-1",
    OldResourceProperties: base.ResourceProperties,
  }) as Event;
const remove = () => ({ ...base, RequestType: "Delete", PhysicalResourceId: "admin-bootstrap-1" }) as Event;
const context = { awsRequestId: "invocation-1", getRemainingTimeInMillis: () => 60_000 } as Context;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function ports(overrides: Partial<AdminBootstrapPorts> = {}) {
  const calls = {
    readCredentials: vi.fn(async () => parseAdminCredentials(secretString)),
    ensureAdmin: vi.fn(async (_: AdminCredentials) => ({ created: true })),
  };
  return { calls, handler: createAdminBootstrapHandler({ ...calls, logger: silent, ...overrides }) };
}

describe("admin bootstrap custom resource (onEvent of CDK's provider framework)", () => {
  it("creates the admin from the secret's credentials on Create and returns the resource's data", async () => {
    const { calls, handler } = ports();
    const result = await handler(create());
    expect(calls.ensureAdmin).toHaveBeenCalledExactlyOnceWith(credentials);
    expect(result).toEqual({
      PhysicalResourceId: expect.stringMatching(/^admin-bootstrap-/),
      Data: { AdminEmail: "ops@org.co", AdminCreated: "true" },
    });
    expect(JSON.stringify(result)).not.toContain(credentials.password);
  });

  it("runs ensureAdmin again on Update and keeps the physical id (an existing admin stays as it is)", async () => {
    const { calls, handler } = ports({ ensureAdmin: async () => ({ created: false }) });
    expect(await handler(update())).toEqual({
      PhysicalResourceId: "admin-bootstrap-1",
      Data: { AdminEmail: "ops@org.co", AdminCreated: "false" },
    });
    expect(calls.readCredentials).toHaveBeenCalledOnce();
  });

  it("does nothing on Delete but return the same physical id", async () => {
    const { calls, handler } = ports();
    expect(await handler(remove())).toEqual({ PhysicalResourceId: "admin-bootstrap-1" });
    expect(calls.readCredentials).not.toHaveBeenCalled();
    expect(calls.ensureAdmin).not.toHaveBeenCalled();
  });

  it("throws the domain call's error, which the framework reports to CloudFormation", async () => {
    const failure = new Error("Invalid configuration: TABLE_NAME");
    const { handler } = ports({ ensureAdmin: () => Promise.reject(failure) });
    await expect(handler(create())).rejects.toBe(failure);
  });

  it("throws on a bad secret by field name, never echoing the values, and creates nothing", async () => {
    const bad = JSON.stringify({ email: "not-an-email", password: "abc" });
    const { calls, handler } = ports({ readCredentials: async () => parseAdminCredentials(bad) });
    const error = await handler(create()).catch((e: unknown) => e as Error);
    expect(error).toEqual(new Error("The admin secret has no valid email, password"));
    expect(error.message).not.toMatch(/not-an-email|abc/);
    expect(calls.ensureAdmin).not.toHaveBeenCalled();
  });

  it("as deployed, answers Delete without reading any secret or configuration", async () => {
    expect(await handler(remove(), context)).toEqual({ PhysicalResourceId: "admin-bootstrap-1" });
  });

  it("as deployed, logs and throws when ADMIN_SECRET_ARN is missing", async () => {
    // The function's configuration as the stack sets it, less the admin secret.
    const deployed = {
      TABLE_NAME: "dorsal",
      ORIGINALS_BUCKET: "dorsal-originals",
      DERIVED_BUCKET: "dorsal-derived",
      JWT_PUBLIC_JWK: JSON.stringify({ kty: "RSA", n: "AQAB", e: "AQAB", kid: "k" }),
      CLOUDFRONT_DOMAIN: "d111111abcdef8.cloudfront.net",
      CLOUDFRONT_KEY_PAIR_ID: "K2JCJMDEHXQW5F",
      CLOUDFRONT_PRIVATE_KEY_SECRET_ARN: "arn:aws:secretsmanager:us-east-1:123456789012:secret:cf",
    };
    for (const [name, value] of Object.entries(deployed)) vi.stubEnv(name, value);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await expect(handler(create(), context)).rejects.toThrow("ADMIN_SECRET_ARN is not set");
      const lines = stderr.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toEqual([
        expect.objectContaining({
          level: "error",
          message: "admin bootstrap failed",
          data: expect.objectContaining({ error: "Error", message: "ADMIN_SECRET_ARN is not set for this function" }),
        }),
      ]);
    } finally {
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
  });
});

describe("admin secret", () => {
  it("holds the email (normalised as login does) and the generated password", () => {
    expect(parseAdminCredentials(secretString)).toEqual(credentials);
  });

  it("is rejected by field name, never echoing the values", () => {
    const bad = () => parseAdminCredentials(JSON.stringify({ email: "not-an-email", password: "abc" }));
    expect(bad).toThrow("The admin secret has no valid email, password");
    expect(bad).not.toThrow(/not-an-email|abc/);
    expect(() => parseAdminCredentials("password=hunter2")).toThrow("The admin secret is not JSON");
  });
});
