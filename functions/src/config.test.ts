import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

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
      "JWT_KEY_SECRET_ARN",
      "CLOUDFRONT_DOMAIN",
      "CLOUDFRONT_KEY_PAIR_ID",
      "CLOUDFRONT_PRIVATE_KEY_SECRET_ARN",
      "JWT_TTL_SECONDS",
    ]) {
      expect(message).toContain(name);
    }
  });

  it("parses a local configuration with defaults", () => {
    const config = parseConfig({
      DORSAL_RUNTIME: "local",
      TABLE_NAME: "dorsal",
      ORIGINALS_BUCKET: "dorsal-originals",
      DERIVED_BUCKET: "dorsal-derived",
      DYNAMODB_ENDPOINT: "http://127.0.0.1:4567",
      S3_ENDPOINT: "http://localhost:3000",
      DATA_DIR: "/tmp/dorsal",
    });
    expect(config).toMatchObject({ DORSAL_RUNTIME: "local", VISION_ENGINE: "local", PIPELINE_CONCURRENCY: 3 });
  });

  it("rejects an unknown runtime", () => {
    expect(() => parseConfig({ DORSAL_RUNTIME: "docker" })).toThrow(/DORSAL_RUNTIME/);
  });
});
