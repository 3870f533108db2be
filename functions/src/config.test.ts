import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";
import { awsEnv, localEnv } from "./testing/config-env";

describe("parseConfig", () => {
  it("names every missing or invalid variable at once", () => {
    let message = "";
    try {
      parseConfig({ DORSAL_RUNTIME: "aws", TABLE_NAME: "t", JWT_TTL_SECONDS: "soon" });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of [
      "ORIGINALS_BUCKET",
      "DERIVED_BUCKET",
      "JWT_PUBLIC_JWK",
      "CLOUDFRONT_DOMAIN",
      "CLOUDFRONT_KEY_PAIR_ID",
      "CLOUDFRONT_PRIVATE_KEY_SECRET_ARN",
      "JWT_TTL_SECONDS",
    ]) {
      expect(message).toContain(name);
    }
  });

  it("parses a local configuration with defaults", () => {
    const config = parseConfig(localEnv);
    expect(config).toMatchObject({ DORSAL_RUNTIME: "local", VISION_ENGINE: "local", PIPELINE_CONCURRENCY: 3 });
  });

  it("reads the JWT public key as JSON and refuses one that is not an RSA key", () => {
    const aws = awsEnv;
    const key = { kty: "RSA", n: "n1", e: "AQAB", kid: "k1" };
    const parsed = parseConfig({ ...aws, JWT_PUBLIC_JWK: JSON.stringify(key) });
    expect(parsed).toMatchObject({ JWT_PUBLIC_JWK: key });
    expect(parsed).not.toHaveProperty("JWT_KEY_SECRET_ARN");
    expect(() => parseConfig({ ...aws, JWT_PUBLIC_JWK: "{not json" })).toThrow(/JWT_PUBLIC_JWK: no es JSON/);
    expect(() => parseConfig({ ...aws, JWT_PUBLIC_JWK: JSON.stringify({ ...key, kty: "EC" }) })).toThrow(
      /JWT_PUBLIC_JWK/,
    );
  });

  it("rejects an unknown runtime", () => {
    expect(() => parseConfig({ DORSAL_RUNTIME: "docker" })).toThrow(/DORSAL_RUNTIME/);
  });
});
