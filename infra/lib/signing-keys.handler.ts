import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomUUID } from "node:crypto";
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from "aws-lambda";

/**
 * Custom resource that creates Dorsal's signing keys inside the account, so no key material ever
 * passes through the repository, the template or a deploy machine:
 * - an RSA key pair for CloudFront signed URLs: the private PEM goes to one secret, the public
 *   PEM is returned to CloudFormation (`PublicKeyPem`) for the CloudFront public key;
 * - an RSA private JWK (`kid`, `alg: RS256`) for session tokens, into the other secret; its public
 *   half is returned (`JwtPublicJwk`) for the functions that only verify sessions.
 * Keys are generated on Create only; an Update keeps them (and returns the same public key).
 * This is the onEvent handler of a CDK provider (signing-keys.ts): it returns the physical id and
 * the data, or throws, and the provider framework answers CloudFormation.
 */
export interface SigningKeysProperties {
  CloudFrontKeySecretArn: string;
  JwtKeySecretArn: string;
}

export interface SigningKeys {
  cloudFrontPrivateKeyPem: string;
  cloudFrontPublicKeyPem: string;
  jwtPrivateJwk: Record<string, unknown> & { kid: string; alg: "RS256" };
}

const secrets = new SecretsManagerClient({});

export function generateSigningKeys(): SigningKeys {
  const cloudFront = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwt = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    cloudFrontPrivateKeyPem: cloudFront.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    cloudFrontPublicKeyPem: publicPemOf(cloudFront.privateKey),
    jwtPrivateJwk: { ...jwt.privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" },
  };
}

function publicPemOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString();
}

/** The public halves, which leave the custom resource as its data. */
export interface PublicKeys {
  /** For the CloudFront public key. */
  PublicKeyPem: string;
  /** JSON `{kty, n, e, kid}`: every function verifies sessions with it; only sign-in reads the secret. */
  JwtPublicJwk: string;
}

/** The public JWK of a private one: `kid` kept, every private member dropped. */
export function jwtPublicJwkOf(privateJwk: Record<string, unknown>): string {
  const { kty, n, e, kid } = privateJwk;
  if (kty !== "RSA" || typeof n !== "string" || typeof e !== "string" || typeof kid !== "string") {
    throw new Error("The JWT key secret does not hold an RSA JWK");
  }
  return JSON.stringify({ kty, n, e, kid });
}

async function createKeys(props: SigningKeysProperties): Promise<PublicKeys> {
  const keys = generateSigningKeys();
  await secrets.send(
    new PutSecretValueCommand({ SecretId: props.CloudFrontKeySecretArn, SecretString: keys.cloudFrontPrivateKeyPem }),
  );
  await secrets.send(
    new PutSecretValueCommand({ SecretId: props.JwtKeySecretArn, SecretString: JSON.stringify(keys.jwtPrivateJwk) }),
  );
  return { PublicKeyPem: keys.cloudFrontPublicKeyPem, JwtPublicJwk: jwtPublicJwkOf(keys.jwtPrivateJwk) };
}

async function existingPublicKeys(props: SigningKeysProperties): Promise<PublicKeys> {
  const read = async (secretId: string, name: string) => {
    const stored = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!stored.SecretString) throw new Error(`The ${name} key secret is empty`);
    return stored.SecretString;
  };
  return {
    PublicKeyPem: publicPemOf(createPrivateKey(await read(props.CloudFrontKeySecretArn, "CloudFront"))),
    JwtPublicJwk: jwtPublicJwkOf(JSON.parse(await read(props.JwtKeySecretArn, "JWT")) as Record<string, unknown>),
  };
}

export async function handler(
  event: CdkCustomResourceEvent<SigningKeysProperties>,
): Promise<CdkCustomResourceResponse<PublicKeys>> {
  const props = event.ResourceProperties;
  switch (event.RequestType) {
    case "Create":
      return { PhysicalResourceId: `signing-keys-${randomUUID()}`, Data: await createKeys(props) };
    case "Update": {
      const old = event.OldResourceProperties;
      const sameSecrets =
        old.CloudFrontKeySecretArn === props.CloudFrontKeySecretArn && old.JwtKeySecretArn === props.JwtKeySecretArn;
      return {
        PhysicalResourceId: event.PhysicalResourceId,
        Data: sameSecrets ? await existingPublicKeys(props) : await createKeys(props),
      };
    }
    case "Delete":
      // The secrets are resources of the stack: CloudFormation deletes them, and the keys with them.
      return { PhysicalResourceId: event.PhysicalResourceId };
  }
}
