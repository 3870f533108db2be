import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BucketRole } from "../../ports/object-store";
import type { UrlSigner } from "../../ports/url-signer";
import { createSignedUrlCache, signedUrlCacheEntries } from "./signed-url-cache";

/** S3 presigned GET URLs: what the local runtime hands out (s3rver behind the same port as the app). */
export function createPresignedUrlSigner(
  client: S3Client,
  buckets: Record<BucketRole, string>,
  clock: () => Date = () => new Date(),
): UrlSigner {
  const cache = createSignedUrlCache({ clock, maxEntries: signedUrlCacheEntries });
  return {
    signedGetUrl: (bucket, key, expiresInSeconds) =>
      cache.get(bucket, key, expiresInSeconds, (expiresAt, signedAt) =>
        getSignedUrl(client, new GetObjectCommand({ Bucket: buckets[bucket], Key: key }), {
          signingDate: signedAt,
          expiresIn: Math.round((expiresAt.getTime() - signedAt.getTime()) / 1000),
        }),
      ),
  };
}
