import { createPublicKey, createSign, createVerify } from "node:crypto";
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { CloudFormationCustomResourceEvent } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenService } from "../../functions/src/app/tokens";
import { generateSigningKeys, handler } from "../lib/signing-keys.handler";

const props = { ServiceToken: "arn:aws:lambda:x", CloudFrontKeySecretArn: "arn:cf", JwtKeySecretArn: "arn:jwt" };
const base = {
  ServiceToken: props.ServiceToken,
  ResponseURL: "https://cloudformation-custom-resource-response.example/put",
  StackId: "arn:aws:cloudformation:us-east-1:1:stack/DorsalStateless/x",
  RequestId: "request-1",
  LogicalResourceId: "SigningKeys",
  ResourceType: "Custom::DorsalSigningKeys",
  ResourceProperties: props,
};

describe("signing keys", () => {
  const keys = generateSigningKeys();

  it("are a CloudFront RSA pair whose public half verifies what the private half signs", () => {
    // CloudFront checks signed URLs with RSA-SHA1 against the PEM public key it was given.
    const signature = createSign("RSA-SHA1").update("policy").sign(keys.cloudFrontPrivateKeyPem);
    expect(createVerify("RSA-SHA1").update("policy").verify(keys.cloudFrontPublicKeyPem, signature)).toBe(true);
    expect(keys.cloudFrontPublicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it("include a JWT key the functions' token service signs and verifies sessions with", async () => {
    expect(keys.jwtPrivateJwk).toMatchObject({ kty: "RSA", alg: "RS256", kid: expect.any(String) });
    const tokens = createTokenService({
      privateJwk: async () => keys.jwtPrivateJwk,
      issuer: "dorsal",
      ttlSeconds: 60,
      clock: { now: () => new Date() },
      sessionState: async () => ({ role: "admin", passwordVersion: 0 }),
    });
    const claims = { userId: "u1", email: "a@b.co", role: "admin" } as const;
    expect(await tokens.verify(await tokens.issue({ ...claims, passwordVersion: 0 }))).toEqual(claims);
  });
});

describe("signing keys custom resource", () => {
  const stored = new Map<string, string>();
  let responses: Record<string, unknown>[];

  beforeEach(() => {
    stored.clear();
    responses = [];
    vi.spyOn(SecretsManagerClient.prototype, "send").mockImplementation(async (command: unknown) => {
      if (command instanceof PutSecretValueCommand) {
        stored.set(command.input.SecretId ?? "", command.input.SecretString ?? "");
        return {};
      }
      if (command instanceof GetSecretValueCommand) return { SecretString: stored.get(command.input.SecretId ?? "") };
      throw new Error("unexpected command");
    });
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      responses.push(JSON.parse(String(init?.body)));
      return new Response("");
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("stores both private keys on Create and returns only the public one", async () => {
    await handler({ ...base, RequestType: "Create" } as CloudFormationCustomResourceEvent);
    const response = responses[0] as { Data: { PublicKeyPem: string } };
    expect(response).toMatchObject({ Status: "SUCCESS", RequestId: "request-1", LogicalResourceId: "SigningKeys" });
    const publicPem = response.Data.PublicKeyPem;
    expect(createPublicKey(stored.get("arn:cf") ?? "").export({ type: "spki", format: "pem" })).toBe(publicPem);
    expect(JSON.parse(stored.get("arn:jwt") ?? "{}")).toMatchObject({ alg: "RS256", d: expect.any(String) });
    expect(JSON.stringify(response)).not.toContain("PRIVATE KEY");
  });

  it("keeps the keys on Update and answers with the same public key", async () => {
    await handler({ ...base, RequestType: "Create" } as CloudFormationCustomResourceEvent);
    const created = responses[0] as { PhysicalResourceId: string; Data: unknown };
    const cloudFrontKey = stored.get("arn:cf");
    await handler({
      ...base,
      RequestType: "Update",
      PhysicalResourceId: created.PhysicalResourceId,
      OldResourceProperties: props,
    } as CloudFormationCustomResourceEvent);
    expect(responses[1]).toMatchObject({
      Status: "SUCCESS",
      PhysicalResourceId: created.PhysicalResourceId,
      Data: created.Data,
    });
    expect(stored.get("arn:cf")).toBe(cloudFrontKey);
  });

  it("reports a failure to CloudFormation instead of leaving the stack waiting", async () => {
    vi.mocked(SecretsManagerClient.prototype.send).mockRejectedValue(new Error("AccessDenied"));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await handler({ ...base, RequestType: "Create" } as CloudFormationCustomResourceEvent);
    expect(responses[0]).toMatchObject({ Status: "FAILED", Reason: "AccessDenied" });
  });
});
