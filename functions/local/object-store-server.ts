import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type S3rver from "s3rver";
import { type LocalStorageCredentials, localStorageCredentials } from "../src/adapters/local/storage-credentials";
import { storedFileHeaders } from "../src/http/security-headers";
import { createMultipartGaps } from "./s3-multipart";
import { verifySignature } from "./sigv4";
import { createS3rver } from "./storage";

/**
 * The local object store as the network sees it: s3rver behind a gate that does what S3 and
 * CloudFront do for the AWS deployment and s3rver does not:
 * - only requests signed with the runtime's own key pass (s3rver takes unsigned requests and never
 *   computes a V4 signature), so an original is reachable only through a URL the API signed;
 * - a key that would leave its bucket's folder (`..`) is refused before s3rver joins it to a path;
 * - CORS answers only the app's own origins;
 * - every stored file is served as inert data: `nosniff`, a sandboxing CSP, and originals as
 *   attachments, as CloudFront's response headers policies do in AWS (http/security-headers.ts).
 */
export interface LocalObjectStore {
  s3rver: S3rver;
  credentials: LocalStorageCredentials;
  /** Whether a request path is the store's (`/<bucket>` or below). */
  owns(pathname: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
}

interface S3rverAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}
const s3rverAccounts = createRequire(import.meta.url)("s3rver/lib/models/account") as {
  DUMMY_ACCOUNT: S3rverAccount;
};

const corsMethods = ["GET", "HEAD", "PUT", "POST", "DELETE"];

export async function createLocalObjectStore(options: {
  dataDir: string;
  buckets: { originals: string; derived: string };
  /** Origins whose pages may call the store from the browser (known once the port is). */
  allowedOrigins: () => string[];
  /** The host presigned URLs are made for, when a proxy in front may have rewritten Host. */
  publicHost: () => string | undefined;
  /** Whether browsers reach the store over TLS (a proxy in front), for HSTS. */
  https: () => boolean;
}): Promise<LocalObjectStore> {
  const { buckets } = options;
  const names = [buckets.originals, buckets.derived];
  const credentials = await localStorageCredentials(options.dataDir);
  // s3rver looks a signature's key up in its own registry (and trusts it from there): only ours.
  s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey("S3RVER");
  s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const s3rver = await createS3rver(options.dataDir, names);
  const s3rverHandler = s3rver.callback();
  const multipartGaps = createMultipartGaps(s3rver, names);

  const allowedOrigin = (request: IncomingMessage) => {
    const origin = request.headers.origin;
    return origin && options.allowedOrigins().includes(origin) ? origin : undefined;
  };

  return {
    s3rver,
    credentials,
    owns: (pathname) => names.some((name) => pathname === `/${name}` || pathname.startsWith(`/${name}/`)),
    async handle(request, response, url) {
      const origin = allowedOrigin(request);
      if (origin) {
        response.setHeader("Access-Control-Allow-Origin", origin);
        response.setHeader("Access-Control-Expose-Headers", "ETag");
        response.setHeader("Vary", "Origin");
      }
      if (request.method === "OPTIONS") return preflight(request, response, origin);

      const [, bucket = "", ...keySegments] = url.pathname.split("/");
      if (!isSafeKey(keySegments))
        return refuse(request, response, 400, "InvalidURI", "Couldn't parse the specified URI.");
      const verdict = verifySignature(
        {
          method: request.method ?? "GET",
          rawPath: url.pathname,
          rawQuery: url.search.slice(1),
          headers: request.headers,
        },
        credentials,
        [request.headers.host ?? "", options.publicHost() ?? ""].filter(Boolean),
        new Date(),
      );
      if (!verdict.ok) return refuse(request, response, 403, verdict.code, verdict.message);

      const headers = storedFileHeaders({ original: bucket === buckets.originals, https: options.https() });
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      if (await multipartGaps(request, response, url)) return;
      s3rverHandler(request, response);
    },
  };
}

/**
 * The store on a loopback port of its own, outside the runtime: for tools and tests that use a data
 * dir's objects through the S3 protocol while no runtime serves them (`npm run migrate`).
 */
export async function serveObjectStore(dataDir: string, buckets: { originals: string; derived: string }) {
  let host: string | undefined;
  const store = await createLocalObjectStore({
    dataDir,
    buckets,
    allowedOrigins: () => [],
    publicHost: () => host,
    https: () => false,
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (store.owns(url.pathname)) void store.handle(request, response, url);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host = new URL(endpoint).host;
  return {
    endpoint,
    store,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A key is safe when no segment, once decoded (`%2F` included: s3rver decodes the whole key), is
 * `.` or `..` or holds a backslash or NUL: s3rver joins keys to file paths as they are.
 */
function isSafeKey(encodedSegments: string[]): boolean {
  let key: string;
  try {
    key = encodedSegments.map((segment) => decodeURIComponent(segment)).join("/");
  } catch {
    return false;
  }
  return key.split("/").every((segment) => segment !== "." && segment !== ".." && !/[\\\0]/.test(segment));
}

function preflight(request: IncomingMessage, response: ServerResponse, origin: string | undefined): void {
  const method = request.headers["access-control-request-method"];
  if (!origin || typeof method !== "string" || !corsMethods.includes(method)) {
    refuse(request, response, 403, "AccessForbidden", "CORSResponse: This CORS request is not allowed.");
    return;
  }
  response.writeHead(204, {
    "Access-Control-Allow-Methods": corsMethods.join(", "),
    "Access-Control-Allow-Headers": request.headers["access-control-request-headers"] ?? "",
    "Access-Control-Max-Age": "3000",
  });
  response.end();
}

function refuse(request: IncomingMessage, response: ServerResponse, status: number, code: string, message: string) {
  // Drained, not read: the client gets its answer and the connection stays usable.
  request.resume();
  response.writeHead(status, { "content-type": "application/xml", "x-content-type-options": "nosniff" });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}
