import { fileURLToPath } from "node:url";
import { CustomResource, Duration, Validations } from "aws-cdk-lib";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { LambdaBundles } from "./bundling";
import { CustomResourceProvider } from "./custom-resource-provider";
import { DorsalFunction } from "./dorsal-function";
import type { SigningKeysProperties } from "./signing-keys.handler";

/** The generator's Lambda entry. */
export const signingKeysEntry = fileURLToPath(new URL("./signing-keys.handler.ts", import.meta.url));

/**
 * The two private keys Dorsal signs with, generated in the account on first deploy by a custom
 * resource (see signing-keys.handler.ts, behind CDK's provider framework): the CloudFront
 * URL-signing key and the JWT key. Only the CloudFront public key comes back out, into the key
 * group that image behaviours trust.
 */
export class SigningKeys extends Construct {
  /** PEM private key matching `publicKey`; the functions sign CloudFront URLs with it. */
  readonly cloudFrontKeySecret: secretsmanager.Secret;
  /** Private RSA JWK (`kid`, `alg: RS256`) for session tokens. */
  readonly jwtKeySecret: secretsmanager.Secret;
  /** The JWT key's public half as JSON: every function verifies sessions with it (JWT_PUBLIC_JWK). */
  readonly jwtPublicJwk: string;
  readonly publicKey: cloudfront.PublicKey;
  readonly keyGroup: cloudfront.KeyGroup;
  /** The custom resource's function (the provider's onEvent handler). */
  readonly generator: DorsalFunction;
  /** CDK's provider framework, which calls `generator` and answers CloudFormation. */
  readonly provider: CustomResourceProvider;

  /** @param bundles bundles that hold `signingKeysEntry`; by default it is bundled alone */
  constructor(scope: Construct, id: string, bundles?: LambdaBundles) {
    super(scope, id);

    // Created with a throwaway random value; the custom resource overwrites it with the key.
    this.cloudFrontKeySecret = new secretsmanager.Secret(this, "CloudFrontKey", {
      description: "Dorsal: PEM private key for CloudFront signed URLs",
    });
    this.jwtKeySecret = new secretsmanager.Secret(this, "JwtKey", {
      description: "Dorsal: private RSA JWK that signs session tokens",
    });

    this.generator = new DorsalFunction(this, "Generator", {
      entry: signingKeysEntry,
      bundles,
      description: "Generates Dorsal's signing keys into Secrets Manager (custom resource)",
      memorySize: 256,
      timeout: Duration.minutes(1),
    });
    this.cloudFrontKeySecret.grantWrite(this.generator.fn);
    this.cloudFrontKeySecret.grantRead(this.generator.fn);
    this.jwtKeySecret.grantWrite(this.generator.fn);
    // An update returns the public halves again, from the keys already stored.
    this.jwtKeySecret.grantRead(this.generator.fn);

    this.provider = new CustomResourceProvider(this, "Provider", this.generator);
    const properties: SigningKeysProperties = {
      CloudFrontKeySecretArn: this.cloudFrontKeySecret.secretArn,
      JwtKeySecretArn: this.jwtKeySecret.secretArn,
    };
    const keys = new CustomResource(this, "Keys", {
      serviceToken: this.provider.serviceToken,
      resourceType: "Custom::DorsalSigningKeys",
      properties,
    });

    this.jwtPublicJwk = keys.getAttString("JwtPublicJwk");
    this.publicKey = new cloudfront.PublicKey(this, "PublicKey", {
      encodedKey: keys.getAttString("PublicKeyPem"),
      comment: "Dorsal: verifies signed image URLs",
    });
    this.keyGroup = new cloudfront.KeyGroup(this, "KeyGroup", {
      items: [this.publicKey],
      comment: "Dorsal: signers trusted by the image behaviours",
    });

    Validations.of(this).acknowledge({
      id: "AwsSolutions-SMG4",
      reason:
        "The keys are generated once by the custom resource, not by a Secrets Manager rotation function. " +
        "Rotating means replacing the resource: new key pair, new CloudFront public key, sessions signed in again.",
    });
  }
}
