import { getSignedUrl } from "@aws-sdk/cloudfront-signer";
import type { UrlSigner } from "../../ports/url-signer";

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
}): UrlSigner {
  return {
    async signedGetUrl(_bucket, key, expiresInSeconds) {
      const expires = new Date(options.clock().getTime() + expiresInSeconds * 1000);
      return getSignedUrl({
        url: `https://${options.domain}/${key.split("/").map(encodeURIComponent).join("/")}`,
        keyPairId: options.keyPairId,
        privateKey: await options.privateKey(),
        dateLessThan: expires.toISOString(),
      });
    },
  };
}
