import { Readable } from "node:stream";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../src/adapters/aws/s3-object-store";
import { type SignedRequest, verifySignature } from "./sigv4";

const credentials = { accessKeyId: "DORSALTEST", secretAccessKey: "secreto-de-prueba" };
const endpoint = "http://192.168.1.20:3000";
const host = "192.168.1.20:3000";

/** The request the SDK would send, captured instead of sent: the signature is the SDK's own. */
async function sentBy(command: object, keys = credentials): Promise<SignedRequest> {
  let captured: SignedRequest | undefined;
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: keys,
    requestChecksumCalculation: "WHEN_REQUIRED",
    requestHandler: {
      handle: async (request: {
        method: string;
        path: string;
        query: Record<string, string | string[] | null>;
        headers: Record<string, string>;
      }) => {
        const query = new URLSearchParams();
        for (const [name, value] of Object.entries(request.query ?? {})) {
          for (const one of [value ?? ""].flat()) query.append(name, one);
        }
        captured = {
          method: request.method,
          rawPath: request.path,
          rawQuery: query.toString().replace(/\+/g, "%20"),
          headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v])),
        };
        return { response: { statusCode: 200, headers: {}, body: Readable.from([]) } };
      },
    },
  });
  await client.send(command as never).catch(() => undefined);
  if (!captured) throw new Error("nothing was sent");
  return captured;
}

/** What a browser sends when it follows a presigned URL. */
function following(url: string, method: string, headers: Record<string, string> = {}): SignedRequest {
  const parsed = new URL(url);
  return {
    method,
    rawPath: parsed.pathname,
    rawQuery: parsed.search.slice(1),
    headers: { host: parsed.host, ...headers },
  };
}

const presigner = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials });
/** The runtime's own adapter: what it signs for uploads. */
const store = createS3ObjectStore(presigner, { originals: "dorsal-originals", derived: "dorsal-derived" });
const key = "eventos/7/originales/Llegada (meta) ñ+1 copia.jpg";

describe("SigV4 verification of the local object store", () => {
  it("accepts what the SDK signs in the Authorization header, for odd keys and query strings too", async () => {
    const now = new Date();
    for (const command of [
      new PutObjectCommand({ Bucket: "dorsal-originals", Key: key, Body: "x", ContentType: "image/jpeg" }),
      new GetObjectCommand({ Bucket: "dorsal-originals", Key: key, Range: "bytes=0-31" }),
      new ListObjectsV2Command({ Bucket: "dorsal-originals", Prefix: "eventos/7/", ContinuationToken: "a b+c/=" }),
    ]) {
      expect(verifySignature(await sentBy(command), credentials, [host], now)).toEqual({ ok: true });
    }
  });

  it("accepts presigned PUT, part and GET URLs as a browser follows them", async () => {
    const now = new Date();
    const put = await store.presignPut("originals", key, "image/jpeg", 3600);
    expect(verifySignature(following(put, "PUT", { "content-type": "image/jpeg" }), credentials, [host], now)).toEqual({
      ok: true,
    });
    const create = await store.presignMultipart("originals", key, { step: "create", contentType: "image/jpeg" }, 3600);
    expect(
      verifySignature(following(create, "POST", { "content-type": "image/jpeg" }), credentials, [host], now).ok,
    ).toBe(true);
    const part = await store.presignMultipart("originals", key, { step: "part", uploadId: "abc", partNumber: 3 }, 3600);
    expect(verifySignature(following(part, "PUT"), credentials, [host], now).ok).toBe(true);
    const get = await getSignedUrl(presigner, new GetObjectCommand({ Bucket: "dorsal-derived", Key: key }), {
      expiresIn: 60,
    });
    expect(verifySignature(following(get, "GET"), credentials, [host], now).ok).toBe(true);
  });

  it("refuses unsigned requests, other keys, other paths, other content types, other methods and other hosts", async () => {
    const now = new Date();
    const put = await store.presignPut("originals", key, "image/jpeg", 3600);
    const asBrowser = following(put, "PUT", { "content-type": "image/jpeg" });
    const refused = (request: SignedRequest, hosts = [host]) => verifySignature(request, credentials, hosts, now).ok;

    expect(refused({ ...asBrowser, rawQuery: "" })).toBe(false);
    expect(refused({ ...asBrowser, rawPath: asBrowser.rawPath.replace("originales", "otros") })).toBe(false);
    expect(refused({ ...asBrowser, headers: { ...asBrowser.headers, "content-type": "text/html" } })).toBe(false);
    expect(refused({ ...asBrowser, method: "DELETE" })).toBe(false);
    expect(refused({ ...asBrowser, headers: { ...asBrowser.headers, host: "evil.example" } }, ["evil.example"])).toBe(
      false,
    );
    // A proxy that rewrote Host: the public host still matches.
    expect(
      refused({ ...asBrowser, headers: { ...asBrowser.headers, host: "127.0.0.1:3000" } }, ["127.0.0.1:3000", host]),
    ).toBe(true);
    const wellKnown = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
    const withWellKnownKey = await sentBy(new GetObjectCommand({ Bucket: "dorsal-originals", Key: key }), wellKnown);
    expect(refused(withWellKnownKey)).toBe(false);
    const forged = await sentBy(new GetObjectCommand({ Bucket: "dorsal-originals", Key: key }), {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: "adivinado",
    });
    expect(verifySignature(forged, credentials, [host], now)).toMatchObject({
      ok: false,
      code: "SignatureDoesNotMatch",
    });
  });

  it("refuses a presigned URL once it expired, and a header signature from another time", async () => {
    const get = await getSignedUrl(presigner, new GetObjectCommand({ Bucket: "dorsal-derived", Key: key }), {
      expiresIn: 60,
    });
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
    expect(verifySignature(following(get, "GET"), credentials, [host], later(50)).ok).toBe(true);
    expect(verifySignature(following(get, "GET"), credentials, [host], later(70))).toMatchObject({
      ok: false,
      message: "Request has expired",
    });
    const signed = await sentBy(new GetObjectCommand({ Bucket: "dorsal-derived", Key: key }));
    expect(verifySignature(signed, credentials, [host], later(16 * 60)).ok).toBe(false);
  });
});
