import { getSignedUrl } from "@aws-sdk/cloudfront-signer";
import type { UrlSigner } from "../../ports/url-signer";
import { createSignedUrlCache, signedUrlCacheEntries, type UrlCacheReport } from "./signed-url-cache";

/**
 * CloudFront signed URLs. Both buckets sit behind one distribution whose path patterns route
 * `eventos/* /originales/*` to the originals bucket and the rest of `eventos/*` to the derived one,
 * so a key alone says which bucket serves it.
 */
export function createCloudFrontUrlSigner(options: {
  domain: string;
  keyPairId: string;
  privateKey: () => Promise<string>;
  clock: () => Date;
  report?: (report: UrlCacheReport) => void;
}): UrlSigner {
  const cache = createSignedUrlCache({
    clock: options.clock,
    maxEntries: signedUrlCacheEntries,
    ...(options.report ? { report: options.report } : {}),
  });
  return {
    signedGetUrl: (bucket, key, expiresInSeconds) =>
      cache.get(bucket, key, expiresInSeconds, async (expiresAt) =>
        getSignedUrl({
          url: `https://${options.domain}/${key.split("/").map(encodeURIComponent).join("/")}`,
          keyPairId: options.keyPairId,
          privateKey: await options.privateKey(),
          dateLessThan: expiresAt.toISOString(),
        }),
      ),
  };
}
