import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDto, EventProcessingDto, FailedPhotoPage, PhotoDto, SearchResponse } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { pendingPhoto } from "../../functions/src/app/uploads";
import { compose } from "../../functions/src/compose";
import { parseConfig } from "../../functions/src/config";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { adminToken, apiClient, waitFor } from "../support/api";
import { activeEvent } from "../support/in-process";
import { serveObjectStore } from "../support/object-store";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The start-up sweep: an original the object store kept but whose storage event never became a
 * queued execution (the process died in between) is processed after the restart, and an upload
 * that never arrived is failed with a reason instead of staying pending forever.
 *
 * The data dir is prepared with the runtime stopped, by the local composition in this process: it
 * writes through the same table and object store but has no storage-event wiring, which is exactly
 * the lost event.
 */
describe("start-up sweep of uploads whose storage event was lost", () => {
  let dataDir: string;
  let dorsal: RunningDorsal | undefined;
  let eventId: number;
  let storedId: string;
  let missingId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-sweep-"));
    const dynamo = await startDynalite(dataDir);
    await ensureTable(dynamo.endpoint, "us-east-1", "dorsal");
    const objectStore = await serveObjectStore(dataDir, { originals: "dorsal-originals", derived: "dorsal-derived" });
    const { deps, close } = await compose(
      parseConfig({
        DORSAL_RUNTIME: "local",
        // The runtime's defaults, so the restarted process finds the same table and buckets.
        TABLE_NAME: "dorsal",
        ORIGINALS_BUCKET: "dorsal-originals",
        DERIVED_BUCKET: "dorsal-derived",
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        S3_ENDPOINT: objectStore.endpoint,
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
      }),
    );
    eventId = await deps.events.nextId();
    await deps.events.create(activeEvent(eventId, "Carrera del corte de luz"));
    const uploader = { userId: "sweep-test" };
    const stored = pendingPhoto(deps, uploader, eventId, "llegada-4410.jpg");
    await deps.photos.createPending(stored);
    const bytes = await makeBibPhoto("4410");
    await deps.objects.put("originals", stored.originalKey, bytes, "image/jpeg", bytes.length);
    storedId = stored.id;
    // Presigned two hours ago (the upload URL lives one) and never sent.
    const missing = pendingPhoto(deps, uploader, eventId, "nunca-llego.jpg");
    await deps.photos.createPending({ ...missing, uploadedAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
    missingId = missing.id;
    await close();
    await objectStore.close();
    await dynamo.close();
  });
  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("processes the stored original and fails the upload that never arrived, once each", async () => {
    expect(await readdir(path.join(dataDir, "pipeline-queue")).catch(() => [])).toEqual([]);
    dorsal = await startDorsal({ dataDir });
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const progress = await waitFor(
      async () => {
        const now = (await admin.get<EventProcessingDto>(`/api/events/${eventId}/processing`)).body;
        return now.processedPhotos + now.failedPhotos >= 2 ? now : undefined;
      },
      120_000,
      "the swept photos to settle",
    );
    expect(progress).toMatchObject({ totalPhotos: 2, processedPhotos: 1, failedPhotos: 1, pendingPhotos: 0 });
    expect((await admin.get<PhotoDto>(`/api/photos/${storedId}`)).body).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["4410"],
    });
    const found = await apiClient(dorsal.url).get<SearchResponse>(
      `/api/photos/search?eventId=${eventId}&dorsalNumber=4410`,
    );
    expect(found.body.photos.map((photo) => photo.id)).toEqual([storedId]);
    const failed = (await admin.get<FailedPhotoPage>("/api/admin/failed-photos")).body.photos;
    expect(failed).toEqual([
      expect.objectContaining({ id: missingId, failureReason: "La subida no se completó", attempts: 0 }),
    ]);
  });

  it("changes nothing on the next restart: settled photos are not swept again", async () => {
    await dorsal?.stop();
    dorsal = await startDorsal({ dataDir });
    const admin = apiClient(dorsal.url, await adminToken(dorsal));
    const event = (await admin.get<EventDto>(`/api/events/${eventId}`)).body;
    expect(event).toMatchObject({ totalPhotos: 2, photoCount: 1, failedPhotos: 1 });
    expect(await readdir(path.join(dataDir, "pipeline-queue"))).toEqual([]);
  });
});
