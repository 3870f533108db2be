import type { IConstruct } from "constructs";

/** The site's own address instead of `*.cloudfront.net`: `-c domainName=… -c certificateArn=…`. */
export interface CustomDomain {
  /** e.g. `fotos.micarrera.co`; a CNAME (or Route 53 alias) to the distribution makes it answer. */
  domainName: string;
  /** An ACM certificate covering it, in us-east-1 (CloudFront reads certificates only there). */
  certificateArn: string;
}

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const usEast1Certificate = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/;

/**
 * The custom domain from the CDK context, both values or neither; undefined without them. Read by
 * both stacks: the stateful one lets the domain upload to the originals bucket (CORS), the
 * stateless one serves it and sends buyers back to it from the payment page.
 */
export function customDomainFrom(scope: IConstruct): CustomDomain | undefined {
  const read = (key: string) => {
    const value: unknown = scope.node.tryGetContext(key);
    return value === undefined || value === null || String(value).trim() === "" ? undefined : String(value).trim();
  };
  const domainName = read("domainName")?.toLowerCase();
  const certificateArn = read("certificateArn");
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn) {
    throw new Error(
      "A custom domain needs both context values: -c domainName=fotos.example.co -c certificateArn=arn:…",
    );
  }
  if (!hostname.test(domainName)) throw new Error(`The domainName context value is not a hostname: ${domainName}`);
  if (!usEast1Certificate.test(certificateArn)) {
    throw new Error(
      `The certificateArn context value must be an ACM certificate in us-east-1 (CloudFront's region): ${certificateArn}`,
    );
  }
  return { domainName, certificateArn };
}
