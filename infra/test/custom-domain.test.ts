import { App } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { customDomainFrom } from "../lib/custom-domain";

const certificateArn = "arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
const from = (context: Record<string, string>) => customDomainFrom(new App({ context }));

describe("the custom domain context values", () => {
  it("are optional, and read together", () => {
    expect(from({})).toBeUndefined();
    expect(from({ domainName: " Fotos.MiCarrera.co ", certificateArn })).toEqual({
      domainName: "fotos.micarrera.co",
      certificateArn,
    });
  });

  it("refuse one without the other, a name that is not a hostname, and a certificate CloudFront cannot use", () => {
    expect(() => from({ domainName: "fotos.micarrera.co" })).toThrow(/both context values/);
    expect(() => from({ certificateArn })).toThrow(/both context values/);
    expect(() => from({ domainName: "https://fotos.micarrera.co", certificateArn })).toThrow(/not a hostname/);
    expect(() =>
      from({ domainName: "fotos.micarrera.co", certificateArn: certificateArn.replace("us-east-1", "sa-east-1") }),
    ).toThrow(/us-east-1/);
  });
});
