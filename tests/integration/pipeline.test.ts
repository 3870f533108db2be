import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { S3Event } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3rver, ensureTable, startDynalite } from "../../functions/local/storage";
import { startPipelineFor } from "../../functions/src/app/starter";
import { storagePaths } from "../../functions/src/app/storage-paths";
import { type Container, compose } from "../../functions/src/compose";
import { parseConfig } from "../../functions/src/config";
import { keys } from "../../functions/src/data/keys";
import { newPhotoFields } from "../../functions/src/data/photos";
import { makeBibPhoto } from "../support/bib-photo";

/**
 * The pipeline through the real stand-ins (dynalite, s3rver, aws-local-stepfunctions, the local
 * OCR engine): redelivered notifications and retried steps change nothing; bad files fail with a
 * reason and are counted once.
 */
describe("pipeline idempotency and failures", () => {
  let dataDir: string;
  let server: Server;
  let closeDynamo: () => Promise<void>;
  let container: Container;
  let eventId: number;

  const notification = (key: string, version: string): S3Event =>
    ({
      Records: [
        {
          eventName: "ObjectCreated:Put",
          s3: { bucket: { name: "it-originals" }, object: { key, size: 1, sequencer: version } },
        },
      ],
    }) as unknown as S3Event;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-pipeline-"));
    const dynamo = await startDynalite(dataDir);
    closeDynamo = dynamo.close;
    await ensureTable(dynamo.endpoint, "us-east-1", "itest");
    const s3rver = await createS3rver(dataDir, ["it-originals", "it-derived"]);
    server = createServer(s3rver.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    container = await compose(
      parseConfig({
        DORSAL_RUNTIME: "local",
        TABLE_NAME: "itest",
        ORIGINALS_BUCKET: "it-originals",
        DERIVED_BUCKET: "it-derived",
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        S3_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        DATA_DIR: dataDir,
        OCR_WORKERS: "1",
        LOG_LEVEL: "silent",
      }),
    );
    eventId = await container.deps.events.nextId();
    const now = new Date().toISOString();
    await container.deps.events.create({
      id: eventId,
      name: "Idempotencia",
      date: "2026-11-29",
      location: "",
      expectedParticipants: 0,
      status: "active",
      freePhotosEnabled: false,
      freePhotosEnabledAt: null,
      requiresAthleteLogin: false,
      createdAt: now,
      updatedAt: now,
    });
  });

  afterAll(async () => {
    await container?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await closeDynamo?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const statsOf = async () => (await container.deps.events.stats([eventId])).get(eventId);

  it("starts one execution per upload, however often the notification is delivered", async () => {
    const key = storagePaths.original(eventId, "0photoredelivered00000000001", "jpg");
    const photo = await makeBibPhoto("615");
    await container.deps.objects.put("originals", key, photo, "image/jpeg", photo.length);
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    expect(await startPipelineFor(deps, notification(key, "A1"))).toBe(1);
    expect(await startPipelineFor(deps, notification(key, "A1"))).toBe(0);
    await container.localPipeline?.idle();

    expect(await statsOf()).toMatchObject({ totalPhotos: 1, processedPhotos: 1, failedPhotos: 0, dorsalsDetected: 1 });
    const stored = await container.deps.photos.get("0photoredelivered00000000001");
    expect(stored).toMatchObject({ processingStatus: "successful", detectedDorsals: ["615"] });
    expect(stored?.recognition?.engine).toBeTruthy();
  });

  it("changes nothing when every step runs again (a retried task or a new delivery)", async () => {
    const key = storagePaths.original(eventId, "0photoredelivered00000000001", "jpg");
    const tasks = container.pipelineTasks;
    const input = { bucket: "it-originals", key, size: 1, version: "A2" };
    const photo = await tasks.prepare(input as never);
    const variants = await tasks.variants({ ...input, photo } as never);
    const detection = await tasks.detect({ ...input, photo, variants } as never);
    const result = await tasks.record({ ...input, photo, variants, detection } as never);
    expect(result).toMatchObject({ firstTime: false, bibs: ["615"] });

    expect(await statsOf()).toMatchObject({ totalPhotos: 1, processedPhotos: 1, dorsalsDetected: 1 });
    const participant = await container.deps.table.get<{ photoCount: number }>(keys.participant(eventId, "615"));
    expect(participant?.photoCount).toBe(1);
    expect(await container.deps.photos.photoIdsForBib(eventId, "615")).toEqual(["0photoredelivered00000000001"]);
  });

  it("records a file that is not an image as failed, with its reason, counted once", async () => {
    const key = storagePaths.original(eventId, "0photonotanimage000000000001", "jpg");
    await container.deps.objects.put("originals", key, Buffer.from("<html>hola</html>"), "image/jpeg", 17);
    await container.deps.photos.createPending({
      id: "0photonotanimage000000000001",
      eventId,
      filename: "x.jpg",
      originalFilename: "x.jpg",
      originalKey: key,
      ...newPhotoFields,
      uploadedAt: new Date().toISOString(),
      uploadedBy: "test",
    });
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    await startPipelineFor(deps, notification(key, "B1"));
    await startPipelineFor(deps, notification(key, "B2"));
    await container.localPipeline?.idle();

    const failed = await container.deps.photos.get("0photonotanimage000000000001");
    expect(failed).toMatchObject({ processingStatus: "failed", processed: false });
    expect(failed?.failureReason).toBe("El archivo no es una imagen reconocida");
    expect(await statsOf()).toMatchObject({ totalPhotos: 2, failedPhotos: 1, processedPhotos: 1 });
  });

  it("ends a copy of a processed photo as a duplicate; the original's own redelivery is no duplicate", async () => {
    const firstKey = storagePaths.original(eventId, "0photoredelivered00000000001", "jpg");
    const copyKey = storagePaths.original(eventId, "0photocopy000000000000000001", "jpg");
    const bytes = await container.deps.objects.getBuffer("originals", firstKey);
    await container.deps.objects.put("originals", copyKey, bytes, "image/jpeg", bytes.length);
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    expect(await startPipelineFor(deps, notification(copyKey, "D1"))).toBe(1);
    // A new delivery of the first photo (another version, so a new execution) must find its own claim.
    expect(await startPipelineFor(deps, notification(firstKey, "A9"))).toBe(1);
    await container.localPipeline?.idle();
    // And a redelivery of the copy changes nothing either.
    expect(await startPipelineFor(deps, notification(copyKey, "D2"))).toBe(1);
    await container.localPipeline?.idle();

    expect(await container.deps.photos.get("0photocopy000000000000000001")).toMatchObject({
      processingStatus: "duplicate",
      duplicateOf: "0photoredelivered00000000001",
      processed: false,
      detectedDorsals: [],
      webKey: null,
    });
    expect(await container.deps.photos.get("0photoredelivered00000000001")).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["615"],
    });
    expect(await container.deps.photos.photoIdsForBib(eventId, "615")).toEqual(["0photoredelivered00000000001"]);
    expect(await statsOf()).toMatchObject({ totalPhotos: 3, processedPhotos: 1, failedPhotos: 1, duplicatePhotos: 1 });
  });

  it("ignores notifications that are not originals", async () => {
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    const derived = notification(storagePaths.web(eventId, "0abc"), "C1");
    expect(await startPipelineFor(deps, derived)).toBe(0);
    const otherBucket = {
      Records: [
        { eventName: "ObjectCreated:Put", s3: { bucket: { name: "it-derived" }, object: { key: "x", size: 1 } } },
      ],
    } as unknown as S3Event;
    expect(await startPipelineFor(deps, otherBucket)).toBe(0);
  });
});
