import { createPublicKey, createSign, createVerify } from "node:crypto";
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { CdkCustomResourceEvent } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenService, type PublicJwk } from "../../functions/src/app/tokens";
import { generateSigningKeys, handler, jwtPublicJwkOf, type SigningKeysProperties } from "../lib/signing-keys.handler";

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
      publicJwk: async () => JSON.parse(jwtPublicJwkOf(keys.jwtPrivateJwk)) as PublicJwk,
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

type Event = CdkCustomResourceEvent<SigningKeysProperties>;

describe("signing keys custom resource (onEvent of CDK's provider framework)", () => {
  const stored = new Map<string, string>();

  beforeEach(() => {
    stored.clear();
    vi.spyOn(SecretsManagerClient.prototype, "send").mockImplementation(async (command: unknown) => {
      if (command instanceof PutSecretValueCommand) {
        stored.set(command.input.SecretId ?? "", command.input.SecretString ?? "");
        return {};
      }
      if (command instanceof GetSecretValueCommand) return { SecretString: stored.get(command.input.SecretId ?? "") };
      throw new Error("unexpected command");
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("stores both private keys on Create and returns only the public one", async () => {
    const response = await handler({ ...base, RequestType: "Create" } as Event);
    expect(response.PhysicalResourceId).toMatch(/^signing-keys-/);
    const publicPem = response.Data?.PublicKeyPem;
    expect(createPublicKey(stored.get("arn:cf") ?? "").export({ type: "spki", format: "pem" })).toBe(publicPem);
    const jwtKey = JSON.parse(stored.get("arn:jwt") ?? "{}") as Record<string, unknown>;
    expect(jwtKey).toMatchObject({ alg: "RS256", d: expect.any(String) });
    expect(JSON.stringify(response)).not.toContain("PRIVATE KEY");
    // The JWT key's public half only: modulus, exponent and id, none of the private members.
    expect(JSON.parse(response.Data?.JwtPublicJwk ?? "{}")).toEqual({
      kty: "RSA",
      n: jwtKey.n,
      e: jwtKey.e,
      kid: jwtKey.kid,
    });
  });

  it("keeps the keys on Update and returns the same physical id and public key", async () => {
    const created = await handler({ ...base, RequestType: "Create" } as Event);
    const cloudFrontKey = stored.get("arn:cf");
    const jwtKey = stored.get("arn:jwt");
    const updated = await handler({
      ...base,
      RequestType: "Update",
      PhysicalResourceId: created.PhysicalResourceId,
      OldResourceProperties: props,
    } as Event);
    expect(updated).toEqual(created);
    expect(stored.get("arn:cf")).toBe(cloudFrontKey);
    expect(stored.get("arn:jwt")).toBe(jwtKey);
  });

  it("does nothing on Delete: the secrets go with the stack", async () => {
    const response = await handler({ ...base, RequestType: "Delete", PhysicalResourceId: "signing-keys-1" } as Event);
    expect(response).toEqual({ PhysicalResourceId: "signing-keys-1" });
    expect(SecretsManagerClient.prototype.send).not.toHaveBeenCalled();
  });

  it("throws a Secrets Manager failure, which the framework reports to CloudFormation", async () => {
    vi.mocked(SecretsManagerClient.prototype.send).mockRejectedValue(new Error("AccessDenied"));
    await expect(handler({ ...base, RequestType: "Create" } as Event)).rejects.toThrow("AccessDenied");
  });
});
