import { messages } from "@dorsal/shared";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { AppError } from "../app/errors";
import { type Config, parseConfig } from "../config";
import { awsEnv, localEnv } from "../testing/config-env";
import { assertThroughSite, originVerifyHeader } from "./origin-verify";

const secret = "s".repeat(48);
const aws = (extra: Record<string, string> = {}) =>
  parseConfig({
    ...awsEnv,
    JWT_PUBLIC_JWK: JSON.stringify({ kty: "RSA", n: "n1", e: "AQAB", kid: "k1" }),
    ...extra,
  });
const request = (headers: Record<string, string>) => ({ headers }) as unknown as APIGatewayProxyEventV2;
const refusal = (config: Config, headers: Record<string, string>) => {
  try {
    assertThroughSite(config, request(headers));
    return undefined;
  } catch (error) {
    return error;
  }
};

describe("requests that must come through the site", () => {
  it("on AWS, passes only the value CloudFront adds", () => {
    const config = aws({ ORIGIN_VERIFY_SECRET: secret });
    expect(refusal(config, { [originVerifyHeader]: secret })).toBeUndefined();
    const forged: Record<string, string>[] = [
      {},
      { [originVerifyHeader]: "" },
      { [originVerifyHeader]: `${secret.slice(1)}x` },
    ];
    for (const headers of forged) {
      const error = refusal(config, headers);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ kind: "forbidden", message: messages.directApiRefused });
    }
  });

  it("on AWS without the value, refuses everything as a fault of the deployment", () => {
    expect(refusal(aws(), { [originVerifyHeader]: secret })).toEqual(
      new Error("ORIGIN_VERIFY_SECRET is not set for this HTTP function"),
    );
  });

  it("locally, lets every request in: the runtime is its own front door", () => {
    const local = parseConfig(localEnv);
    expect(refusal(local, {})).toBeUndefined();
  });
});
