/** Short-lived URLs that load a stored image directly: CloudFront-signed in AWS, presigned locally. */
export interface UrlSigner {
  signedGetUrl(bucket: "originals" | "derived", key: string, expiresInSeconds: number): Promise<string>;
}
