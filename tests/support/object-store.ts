import { S3Client } from "@aws-sdk/client-s3";
import { localStorageCredentials } from "../../functions/src/adapters/local/storage-credentials";

/** The runtime's object store on a port of its own, for tests that use it without the whole runtime. */
export { serveObjectStore } from "../../functions/local/object-store-server";

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
