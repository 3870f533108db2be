import type { S3Client } from "@aws-sdk/client-s3";
import { S3RequestPresigner } from "@aws-sdk/s3-request-presigner";
import type { BucketRole } from "../../ports/object-store";
import type { UrlSigner } from "../../ports/url-signer";
import { createSignedUrlCache, signedUrlCacheEntries, type UrlCacheReport } from "./signed-url-cache";

/** RFC 3986, as SigV4 and the SDK escape: encodeURIComponent leaves !'()* alone. */
const escapeUri = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * S3 presigned GET URLs: what the local runtime hands out (s3rver behind the same port as the app),
 * for a path-style endpoint.
 *
 * The request is written here rather than by the SDK's GetObjectCommand: the command's middleware
 * and endpoint rules cost ~0.6 ms of CPU a URL, ten times the signature, and a search answer carries
 * two URLs a photo. The signature is still the SDK's (S3RequestPresigner), on the same request the
 * command would send (tests/integration/presigned-urls.test.ts compares the two URLs).
 */
export function createPresignedUrlSigner(
  client: S3Client,
  endpoint: string,
  buckets: Record<BucketRole, string>,
  clock: () => Date = () => new Date(),
  report?: (report: UrlCacheReport) => void,
): UrlSigner {
  const cache = createSignedUrlCache({ clock, maxEntries: signedUrlCacheEntries, ...(report ? { report } : {}) });
  const presigner = new S3RequestPresigner({ ...client.config });
  const base = new URL(endpoint);
  const basePath = base.pathname.replace(/\/$/, "");
  return {
    signedGetUrl: (bucket, key, expiresInSeconds) =>
      cache.get(bucket, key, expiresInSeconds, async (expiresAt, signedAt) => {
        const path = `${basePath}/${buckets[bucket]}/${key.split("/").map(escapeUri).join("/")}`;
        const signed = await presigner.presign(
          {
            method: "GET",
            protocol: base.protocol,
            hostname: base.hostname,
            ...(base.port ? { port: Number(base.port) } : {}),
            path,
            query: { "x-id": "GetObject" },
            headers: {},
          },
          { signingDate: signedAt, expiresIn: Math.round((expiresAt.getTime() - signedAt.getTime()) / 1000) },
        );
        const signedQuery = signed.query ?? {};
        const query = Object.keys(signedQuery)
          .sort()
          .map((name) => `${escapeUri(name)}=${escapeUri(String(signedQuery[name]))}`)
          .join("&");
        return `${base.protocol}//${base.host}${path}?${query}`;
      }),
  };
}
