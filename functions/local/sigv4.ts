import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * AWS Signature Version 4 as S3 checks it, for the local object store: s3rver 3.7 accepts any V4
 * signature without computing it (and any unsigned request), so on its own it would serve every
 * original to anyone on the LAN. Both ways the SDK signs are covered: the Authorization header
 * (the runtime's own S3 client) and the query string (presigned URLs the browser follows).
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
export interface StorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  method: string;
  /** The path exactly as it arrived, still percent-encoded. */
  rawPath: string;
  /** The query string exactly as it arrived, without the `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

export type Verdict = { ok: true } | { ok: false; code: "AccessDenied" | "SignatureDoesNotMatch"; message: string };

/** How far a header-signed request's clock may be from ours (S3's own limit). */
const maxSkewMs = 15 * 60_000;
/** The longest a presigned URL may live (S3's own limit: a week). */
const maxPresignSeconds = 604_800;
const algorithm = "AWS4-HMAC-SHA256";

const denied = (message: string): Verdict => ({ ok: false, code: "AccessDenied", message });

/**
 * Whether the request carries a valid signature by `credentials`, made for one of `hosts` (the
 * host it arrived with first; a reverse proxy may rewrite it, so the public host counts too).
 */
export function verifySignature(
  request: SignedRequest,
  credentials: StorageCredentials,
  hosts: string[],
  now: Date,
): Verdict {
  const query = parseQuery(request.rawQuery);
  if (!query) return denied("Malformed query string");
  const header = typeof request.headers.authorization === "string" ? request.headers.authorization : undefined;
  const presigned = query.some(([name]) => name === "X-Amz-Signature");
  if (header && presigned) return denied("Only one auth mechanism allowed");
  const parts = header ? fromHeader(header, request.headers, now) : presigned ? fromQuery(query, now) : undefined;
  if (!parts) return denied("Request is not signed");
  if (!("credential" in parts)) return parts;

  const [accessKeyId, day, region, service, terminator, ...extra] = parts.credential.split("/");
  if (accessKeyId !== credentials.accessKeyId) return denied("The access key is not known");
  if (!day || !region || service !== "s3" || terminator !== "aws4_request" || extra.length > 0) {
    return denied("Malformed credential scope");
  }
  if (parts.amzDate.slice(0, 8) !== day) return denied("Credential date does not match the request date");
  const canonicalUri = canonicalPath(request.rawPath);
  if (canonicalUri === undefined) return denied("Malformed path");
  const canonicalQuery = query
    .filter(([name]) => !(presigned && name === "X-Amz-Signature"))
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const signedHeaders = parts.signedHeaders.split(";");
  if (!signedHeaders.includes("host")) return denied("The host header must be signed");
  const scope = `${day}/${region}/s3/aws4_request`;
  const key = signingKey(credentials.secretAccessKey, day, region);
  const provided = Buffer.from(parts.signature, "hex");

  for (const host of new Set(hosts)) {
    const canonicalHeaders = signedHeaders.map((name) => {
      const value = name === "host" ? host : request.headers[name];
      if (value === undefined) return undefined;
      return `${name}:${(Array.isArray(value) ? value.join(",") : value).trim().replace(/\s+/g, " ")}\n`;
    });
    if (canonicalHeaders.includes(undefined)) return denied("A signed header is missing");
    const canonicalRequest = [
      request.method,
      canonicalUri,
      canonicalQuery,
      canonicalHeaders.join(""),
      parts.signedHeaders,
      parts.payloadHash,
    ].join("\n");
    const stringToSign = [algorithm, parts.amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
    const expected = createHmac("sha256", key).update(stringToSign).digest();
    if (provided.length === expected.length && timingSafeEqual(provided, expected)) return { ok: true };
  }
  return {
    ok: false,
    code: "SignatureDoesNotMatch",
    message: "The request signature we calculated does not match the signature you provided",
  };
}

interface SignatureParts {
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  payloadHash: string;
}

function fromHeader(header: string, headers: IncomingHttpHeaders, now: Date): SignatureParts | Verdict {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      header.trim(),
    );
  if (!match) return denied("Unsupported or malformed Authorization header");
  const amzDate = headers["x-amz-date"];
  const payloadHash = headers["x-amz-content-sha256"];
  if (typeof amzDate !== "string" || typeof payloadHash !== "string") {
    return denied("x-amz-date and x-amz-content-sha256 are required");
  }
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined) return denied("Malformed x-amz-date");
  if (Math.abs(now.getTime() - signedAt) > maxSkewMs) return denied("Request time too skewed");
  return { credential: match[1] ?? "", signedHeaders: match[2] ?? "", signature: match[3] ?? "", amzDate, payloadHash };
}

function fromQuery(query: [string, string][], now: Date): SignatureParts | Verdict {
  const get = (name: string) => query.find(([key]) => key === name)?.[1];
  const [credential, signedHeaders, signature, amzDate, expires] = [
    "X-Amz-Credential",
    "X-Amz-SignedHeaders",
    "X-Amz-Signature",
    "X-Amz-Date",
    "X-Amz-Expires",
  ].map(get);
  if (get("X-Amz-Algorithm") !== algorithm || !credential || !signedHeaders || !signature || !amzDate || !expires) {
    return denied("Query-string authentication requires every X-Amz-* parameter");
  }
  if (!/^[0-9a-f]{64}$/.test(signature) || !/^[a-z0-9;-]+$/.test(signedHeaders)) return denied("Malformed signature");
  const signedAt = parseAmzDate(amzDate);
  const lifetime = Number(expires);
  if (signedAt === undefined || !Number.isInteger(lifetime) || lifetime < 0 || lifetime > maxPresignSeconds) {
    return denied("Malformed X-Amz-Date or X-Amz-Expires");
  }
  if (signedAt - now.getTime() > maxSkewMs) return denied("Request is signed in the future");
  if (now.getTime() > signedAt + lifetime * 1000) return denied("Request has expired");
  return {
    credential,
    signedHeaders,
    signature,
    amzDate,
    payloadHash: get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD",
  };
}

/** `20261125T160546Z` → epoch milliseconds. */
function parseAmzDate(value: string): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

/** Name/value pairs decoded as S3 reads them: `+` is a plus, not a space. Undefined when malformed. */
export function parseQuery(raw: string): [string, string][] | undefined {
  if (!raw) return [];
  try {
    return raw
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        const [name, value] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
        return [decodeURIComponent(name), decodeURIComponent(value)];
      });
  } catch {
    return undefined;
  }
}

/** S3 does not normalise paths: each segment decoded and encoded again, slashes kept. */
function canonicalPath(rawPath: string): string | undefined {
  try {
    return rawPath
      .split("/")
      .map((segment) => uriEncode(decodeURIComponent(segment)))
      .join("/");
  } catch {
    return undefined;
  }
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded, as SigV4 requires. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function signingKey(secret: string, day: string, region: string): Buffer {
  const dateKey = createHmac("sha256", `AWS4${secret}`).update(day).digest();
  const regionKey = createHmac("sha256", dateKey).update(region).digest();
  const serviceKey = createHmac("sha256", regionKey).update("s3").digest();
  return createHmac("sha256", serviceKey).update("aws4_request").digest();
}

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
