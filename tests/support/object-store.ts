import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { S3Client } from "@aws-sdk/client-s3";
import { createLocalObjectStore } from "../../functions/local/object-store-server";
import { localStorageCredentials } from "../../functions/src/adapters/local/storage-credentials";

/**
 * The runtime's object store (s3rver behind its signature gate) on a port of its own, for tests
 * that use the storage stand-in without the whole runtime.
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

/** An S3 client signed with the key pair of the runtime whose data dir this is, as the runtime's own. */
export async function runtimeS3Client(dataDir: string, endpoint: string): Promise<S3Client> {
  return new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: await localStorageCredentials(dataDir),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
