import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createS3rver, ensureTable, startDynalite } from "../../functions/local/storage";
import { type Container, compose } from "../../functions/src/compose";
import { parseConfig } from "../../functions/src/config";
import type { EventRecord } from "../../functions/src/data/events";

export const testBuckets = { originals: "it-originals", derived: "it-derived" } as const;

/** A paid, active event as the admin screen creates it. */
export function activeEvent(id: number, name: string): EventRecord {
  const now = new Date().toISOString();
  return {
    id,
    name,
    date: "2026-11-29",
    location: "",
    expectedParticipants: 0,
    status: "active",
    freePhotosEnabled: false,
    freePhotosEnabledAt: null,
    requiresAthleteLogin: false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The local composition over the real stand-ins (dynalite, s3rver, the local pipeline and engines)
 * in the test's own process, with one event to work in — for tests that drive the pipeline's
 * steps directly rather than through HTTP.
 */
export async function startInProcess(eventName: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-inprocess-"));
  const dynamo = await startDynalite(dataDir);
  await ensureTable(dynamo.endpoint, "us-east-1", "itest");
  const s3rver = await createS3rver(dataDir, [testBuckets.originals, testBuckets.derived]);
  const server = createServer(s3rver.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const container: Container = await compose(
    parseConfig({
      DORSAL_RUNTIME: "local",
      TABLE_NAME: "itest",
      ORIGINALS_BUCKET: testBuckets.originals,
      DERIVED_BUCKET: testBuckets.derived,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      DATA_DIR: dataDir,
      OCR_WORKERS: "1",
      LOG_LEVEL: "silent",
    }),
  );
  const eventId = await container.deps.events.nextId();
  await container.deps.events.create(activeEvent(eventId, eventName));
  return {
    container,
    eventId,
    async stop() {
      await container.close();
      await new Promise((resolve) => server.close(resolve));
      await dynamo.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
