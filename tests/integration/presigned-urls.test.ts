import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPresignedUrlSigner } from "../../functions/src/adapters/aws/s3-presigned-url-signer";
import { testBuckets } from "../support/in-process";
import { runtimeS3Client, serveObjectStore } from "../support/object-store";

/**
 * The local runtime writes its presigned GET requests itself (the SDK's command costs ten times
 * the signature): the URLs must be exactly those the SDK would sign, and the store must honour them.
 */
describe("presigned image URLs of the local runtime", () => {
  let dataDir: string;
  let served: Awaited<ReturnType<typeof serveObjectStore>>;
  let client: S3Client;
  const signedAt = new Date("2026-11-29T07:00:00Z");

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-presigned-"));
    served = await serveObjectStore(dataDir, testBuckets);
    client = await runtimeS3Client(dataDir, served.endpoint);
  });
  afterAll(async () => {
    client.destroy();
    await served.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const keys = [
    "eventos/1/web/abc123.jpg",
    "eventos/12/miniaturas/foto (2)!*'.jpg",
    "eventos/3/vista previa/Maratón ñandú #7+8=15?.jpg",
  ];

  it.each(keys)("signs %s exactly as the SDK's GetObjectCommand does", async (key) => {
    // The originals are never cached, so each call signs at the clock's moment with exactly the lifetime.
    const signer = createPresignedUrlSigner(client, served.endpoint, testBuckets, () => signedAt);
    const ours = await signer.signedGetUrl("originals", key, 900);
    const sdk = await getSignedUrl(client, new GetObjectCommand({ Bucket: testBuckets.originals, Key: key }), {
      signingDate: signedAt,
      expiresIn: 900,
    });
    expect(ours).toBe(sdk);
  });

  it("opens the object, and refuses the URL once anything in it is changed", async () => {
    const key = "eventos/3/vista previa/Maratón (1).jpg";
    await client.send(
      new PutObjectCommand({ Bucket: testBuckets.derived, Key: key, Body: "jpeg bytes", ContentType: "image/jpeg" }),
    );
    const signer = createPresignedUrlSigner(client, served.endpoint, testBuckets);
    const url = await signer.signedGetUrl("derived", key, 600);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("jpeg bytes");

    const otherKey = url.replace("Marat%C3%B3n%20%281%29.jpg", "Marat%C3%B3n%20%282%29.jpg");
    expect(otherKey).not.toBe(url);
    expect((await fetch(otherKey)).status).toBe(403);
    const longer = url.replace(/X-Amz-Expires=\d+/, "X-Amz-Expires=604800");
    expect((await fetch(longer)).status).toBe(403);
  });
});
