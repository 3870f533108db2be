import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { type Container, compose } from "../../functions/src/compose";
import { parseConfig } from "../../functions/src/config";
import type { EventRecord } from "../../functions/src/data/events";
import { serveObjectStore } from "./object-store";

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
  const objectStore = await serveObjectStore(dataDir, testBuckets);
  const container: Container = await compose(
    parseConfig({
      DORSAL_RUNTIME: "local",
      TABLE_NAME: "itest",
      ORIGINALS_BUCKET: testBuckets.originals,
      DERIVED_BUCKET: testBuckets.derived,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: objectStore.endpoint,
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
      await objectStore.close();
      await dynamo.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
