import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CloudFormationCustomResourceEvent } from "aws-lambda";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type AdminBootstrapPorts,
  type AdminCredentials,
  createAdminBootstrapHandler,
  handler,
  parseAdminCredentials,
  sendResponse,
} from "./admin-bootstrap";

/** A stand-in for CloudFormation's presigned response URL: records every PUT it receives. */
interface Received {
  method: string;
  contentType: string | undefined;
  body: Record<string, unknown>;
}
let server: Server;
let url: string;
let received: Received[];
let status = 200;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        contentType: request.headers["content-type"],
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      response.writeHead(status).end(status === 200 ? "" : "<Error>SignatureDoesNotMatch</Error>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cloudformation-response?X-Amz-Signature=x`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  status = 200;
});

const credentials: AdminCredentials = { email: "ops@org.co", password: "Abcdefghjkmnpqrstuvwxyz2" };
const base = {
  ServiceToken: "arn:aws:lambda:us-east-1:1:function:bootstrap",
  StackId: "arn:aws:cloudformation:us-east-1:1:stack/DorsalStateless/x",
  RequestId: "request-1",
  LogicalResourceId: "AdminBootstrapAdmin",
  ResourceType: "Custom::DorsalAdminBootstrap",
  ResourceProperties: { ServiceToken: "arn:aws:lambda:x", AdminSecretArn: "arn:aws:secretsmanager:x" },
};
const create = () => ({ ...base, ResponseURL: url, RequestType: "Create" }) as CloudFormationCustomResourceEvent;
const update = () =>
  ({
    ...base,
    ResponseURL: url,
    RequestType: "Update",
    PhysicalResourceId: "admin-bootstrap-1",
    OldResourceProperties: base.ResourceProperties,
  }) as CloudFormationCustomResourceEvent;
const remove = () =>
  ({
    ...base,
    ResponseURL: url,
    RequestType: "Delete",
    PhysicalResourceId: "admin-bootstrap-1",
  }) as CloudFormationCustomResourceEvent;
const context = (remainingMs = 60_000) => ({
  getRemainingTimeInMillis: () => remainingMs,
  logStreamName: "2026/01/01/[$LATEST]abc",
});
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function ports(overrides: Partial<AdminBootstrapPorts> = {}) {
  const calls = {
    readCredentials: vi.fn(async () => credentials),
    ensureAdmin: vi.fn(async () => ({ created: true })),
  };
  return {
    calls,
    handler: createAdminBootstrapHandler({ ...calls, respond: sendResponse, logger: silent, ...overrides }),
  };
}

describe("admin bootstrap custom resource", () => {
  it("creates the admin from the secret on Create and answers SUCCESS with a PUT CloudFormation accepts", async () => {
    const { calls, handler } = ports();
    await handler(create(), context());
    expect(calls.ensureAdmin).toHaveBeenCalledWith(credentials);
    expect(received).toHaveLength(1);
    const [answer] = received;
    expect(answer?.method).toBe("PUT");
    // Presigned without a content type: any other value breaks the signature.
    expect(answer?.contentType ?? "").toBe("");
    expect(answer?.body).toEqual({
      Status: "SUCCESS",
      PhysicalResourceId: expect.stringMatching(/^admin-bootstrap-/),
      StackId: base.StackId,
      RequestId: "request-1",
      LogicalResourceId: "AdminBootstrapAdmin",
      Data: { AdminEmail: "ops@org.co", AdminCreated: "true" },
    });
    expect(JSON.stringify(answer?.body)).not.toContain(credentials.password);
  });

  it("runs ensureAdmin again on Update and keeps the physical id (an existing admin stays as it is)", async () => {
    const { calls, handler } = ports({ ensureAdmin: async () => ({ created: false }) });
    await handler(update(), context());
    expect(calls.readCredentials).toHaveBeenCalledOnce();
    expect(received[0]?.body).toMatchObject({
      Status: "SUCCESS",
      PhysicalResourceId: "admin-bootstrap-1",
      Data: { AdminCreated: "false" },
    });
  });

  it("does nothing on Delete but answer SUCCESS with the same physical id", async () => {
    const { calls, handler } = ports();
    await handler(remove(), context());
    expect(calls.readCredentials).not.toHaveBeenCalled();
    expect(calls.ensureAdmin).not.toHaveBeenCalled();
    expect(received[0]?.body).toEqual({
      Status: "SUCCESS",
      PhysicalResourceId: "admin-bootstrap-1",
      StackId: base.StackId,
      RequestId: "request-1",
      LogicalResourceId: "AdminBootstrapAdmin",
    });
  });

  it("answers FAILED with the reason and log stream when the domain call fails", async () => {
    const { handler } = ports({ ensureAdmin: () => Promise.reject(new Error("Invalid configuration: TABLE_NAME")) });
    await handler(create(), context());
    expect(received[0]?.body).toMatchObject({
      Status: "FAILED",
      Reason: "Invalid configuration: TABLE_NAME (CloudWatch log stream 2026/01/01/[$LATEST]abc)",
      PhysicalResourceId: expect.stringMatching(/^admin-bootstrap-/),
    });
  });

  it("answers FAILED before the function's timeout instead of leaving the stack waiting for an hour", async () => {
    const { handler } = ports({ ensureAdmin: () => new Promise(() => undefined) });
    // 3.05 s left: 50 ms of work budget, the rest kept for the answer.
    await handler(update(), context(3_050));
    expect(received[0]?.body).toMatchObject({ Status: "FAILED", Reason: expect.stringContaining("timed out") });
  });

  it("keeps the reason within CloudFormation's response size", async () => {
    const { handler } = ports({ readCredentials: () => Promise.reject(new Error("x".repeat(10_000))) });
    await handler(create(), context());
    expect(String(received[0]?.body.Reason).length).toBeLessThanOrEqual(1_000);
  });

  it("throws when CloudFormation rejects the answer, so Lambda retries the invocation", async () => {
    status = 403;
    const { handler } = ports();
    await expect(handler(create(), context())).rejects.toThrow(/rejected: 403/);
  });

  it("as deployed, answers Delete without reading any secret or configuration", async () => {
    await handler(remove(), context());
    expect(received[0]?.body).toMatchObject({ Status: "SUCCESS", PhysicalResourceId: "admin-bootstrap-1" });
  });

  it("as deployed, answers FAILED when ADMIN_SECRET_ARN is missing", async () => {
    vi.stubEnv("ADMIN_SECRET_ARN", "");
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await handler(create(), context());
    } finally {
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
    expect(received[0]?.body).toMatchObject({
      Status: "FAILED",
      Reason: expect.stringContaining("ADMIN_SECRET_ARN is not set"),
    });
  });
});

describe("admin secret", () => {
  it("holds the email (normalised as login does) and the generated password", () => {
    const secret = JSON.stringify({ email: " Ops@Org.co ", password: credentials.password });
    expect(parseAdminCredentials(secret)).toEqual(credentials);
  });

  it("is rejected by field name, never echoing the values", () => {
    const bad = () => parseAdminCredentials(JSON.stringify({ email: "not-an-email", password: "abc" }));
    expect(bad).toThrow("The admin secret has no valid email, password");
    expect(bad).not.toThrow(/not-an-email|abc/);
    expect(() => parseAdminCredentials("password=hunter2")).toThrow("The admin secret is not JSON");
  });
});
