import { photoFailureReasons } from "@dorsal/shared";
import type { S3Event } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../functions/src/app/deps";
import { recountChangedEvents, recountEventStats } from "../../functions/src/app/processing";
import { startPipelineFor } from "../../functions/src/app/starter";
import { storagePaths } from "../../functions/src/app/storage-paths";
import type { Container } from "../../functions/src/compose";
import { countsGeneration } from "../../functions/src/data/events";
import { keys } from "../../functions/src/data/keys";
import { newPhotoFields } from "../../functions/src/data/photos";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { startInProcess, testBuckets } from "../support/in-process";

/**
 * The pipeline through the real stand-ins (dynalite, s3rver, aws-local-stepfunctions, the local
 * OCR engine): redelivered notifications and retried steps change nothing; bad files fail with a
 * reason and are counted once.
 */
describe("pipeline idempotency and failures", () => {
  let standIns: Awaited<ReturnType<typeof startInProcess>>;
  let container: Container;
  let eventId: number;

  const notification = (key: string, version: string): S3Event =>
    ({
      Records: [
        {
          eventName: "ObjectCreated:Put",
          s3: { bucket: { name: testBuckets.originals }, object: { key, size: 1, sequencer: version } },
        },
      ],
    }) as unknown as S3Event;

  beforeAll(async () => {
    standIns = await startInProcess("Idempotencia");
    ({ container, eventId } = standIns);
  });

  afterAll(async () => {
    await standIns?.stop();
  });

  const statsOf = async () => (await container.deps.events.stats([eventId])).get(eventId);
  /** A photo registered as uploaded, whose original is `key`. */
  const pendingRecord = (id: string, key: string) => ({
    id,
    eventId,
    filename: "x.jpg",
    originalFilename: "x.jpg",
    originalKey: key,
    ...newPhotoFields,
    uploadedAt: new Date().toISOString(),
    uploadedBy: "test",
  });

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
    const input = { bucket: testBuckets.originals, key, size: 1, version: "A2" };
    const photo = await tasks.prepare(input);
    const variants = await tasks.variants({ photo });
    const detection = await tasks.detect({ photo, variants });
    const result = await tasks.record({ photo, variants, detection });
    expect(result).toMatchObject({ firstTime: false, bibs: ["615"] });

    expect(await statsOf()).toMatchObject({ totalPhotos: 1, processedPhotos: 1, dorsalsDetected: 1 });
    const participant = await container.deps.table.get<{ photoCount: number }>(keys.participant(eventId, "615"));
    expect(participant?.photoCount).toBe(1);
    expect(await container.deps.bibLinks.photoIdsForBib(eventId, "615")).toEqual(["0photoredelivered00000000001"]);
  });

  it("records a file that is not an image as failed, with its reason, counted once", async () => {
    const key = storagePaths.original(eventId, "0photonotanimage000000000001", "jpg");
    await container.deps.objects.put("originals", key, Buffer.from("<html>hola</html>"), "image/jpeg", 17);
    await container.deps.photos.createPending(pendingRecord("0photonotanimage000000000001", key));
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
    expect(await container.deps.bibLinks.photoIdsForBib(eventId, "615")).toEqual(["0photoredelivered00000000001"]);
    expect(await statsOf()).toMatchObject({ totalPhotos: 3, processedPhotos: 1, failedPhotos: 1, duplicatePhotos: 1 });
  });

  it("ignores notifications that are not originals", async () => {
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    const derived = notification(storagePaths.web(eventId, "0abc"), "C1");
    expect(await startPipelineFor(deps, derived)).toBe(0);
    const otherBucket = {
      Records: [
        {
          eventName: "ObjectCreated:Put",
          s3: { bucket: { name: testBuckets.derived }, object: { key: "x", size: 1 } },
        },
      ],
    } as unknown as S3Event;
    expect(await startPipelineFor(deps, otherBucket)).toBe(0);
  });

  it("recounts counters a kill left one write behind from the photos and their bib links", async () => {
    const deps = container.deps;
    const counted = await statsOf();
    expect(counted).toMatchObject({ totalPhotos: 3, processedPhotos: 1, failedPhotos: 1, duplicatePhotos: 1 });
    // The processing time counted is the first run's; the photo keeps its latest run's, which the recount adds up.
    const ms = (await deps.photos.get("0photoredelivered00000000001"))?.recognition?.ms ?? {};
    const exact = {
      ...counted,
      processingMsTotal: (ms.variants ?? 0) + (ms.decode ?? 0) + (ms.text ?? 0) + (ms.faces ?? 0),
    };
    expect(exact.processingMsTotal).toBeGreaterThan(0);
    // What kills between a photo's state and its counters leave behind, several times over.
    const skew = {
      totalPhotos: 2,
      processedPhotos: -1,
      failedPhotos: 1,
      duplicatePhotos: 3,
      facesDetected: 4,
      unbibbedPhotos: 2,
    };
    await deps.events.addStats(
      eventId,
      { ...skew, processingMsTotal: 999, dorsalsDetected: 5, bibsWithPhotos: 3 },
      new Date(),
    );
    const participants = await deps.participants.participantCounts(eventId);
    expect(await deps.participants.replaceParticipantCount(eventId, "615", 7, participants.get("615"))).toBe(true);
    expect(await deps.participants.replaceParticipantCount(eventId, "4242", 2, participants.get("4242"))).toBe(true);
    const bookkeeping = {
      lastUpdated: expect.any(String),
      recountedAt: expect.any(String),
      changes: expect.any(Number),
      changesAtRecount: expect.any(Number),
      // Moved by every participant count written, the recount's included (the bib grid re-reads on it).
      bibCountsVersion: expect.any(Number),
      countsGeneration: expect.any(Number),
    };

    expect(await recountEventStats(deps, eventId, { links: false })).toEqual({ replaced: true });
    // Without the links, the bib counts are left as they were.
    expect(await statsOf()).toEqual({
      ...exact,
      dorsalsDetected: (exact.dorsalsDetected ?? 0) + 5,
      bibsWithPhotos: (exact.bibsWithPhotos ?? 0) + 3,
      ...bookkeeping,
    });

    expect(await recountEventStats(deps, eventId, { links: true })).toEqual({ replaced: true });
    const recounted = await statsOf();
    expect(recounted).toEqual({ ...exact, ...bookkeeping });
    // Nothing moved the counters since the recount read them; every counter is one a recount made.
    expect(recounted?.changesAtRecount).toBe(recounted?.changes);
    expect(recounted?.countsGeneration).toBe(countsGeneration);
    expect(await deps.participants.participantCounts(eventId)).toEqual(
      new Map([
        ["615", 1],
        ["4242", 0],
      ]),
    );
  });

  it("leaves counters a write moved mid-recount alone; the schedule recounts them once the event is quiet", async () => {
    let now = new Date();
    const deps: Deps = { ...container.deps, clock: { now: () => now } };
    const exact = await statsOf();
    const exactParticipants = await deps.participants.participantCounts(eventId);
    await deps.events.addStats(eventId, { processedPhotos: 4 }, now);
    await deps.bibLinks.linkBib(eventId, "9999", "0photoredelivered00000000001", now.toISOString());

    // A pipeline write lands while the recount reads the photos: its result is stale, so it changes nothing.
    const racing: Deps = {
      ...deps,
      photos: {
        ...deps.photos,
        countingPage: async (...args: Parameters<Deps["photos"]["countingPage"]>) => {
          await deps.events.addStats(eventId, { facesDetected: 0 }, now);
          return deps.photos.countingPage(...args);
        },
      },
    };
    expect(await recountEventStats(racing, eventId, { links: true })).toEqual({ replaced: false });
    expect((await statsOf())?.processedPhotos).toBe((exact?.processedPhotos ?? 0) + 4);

    // The schedule waits until the event has been still for the quiet period…
    now = new Date(now.getTime() + 5 * 60_000);
    expect(await recountChangedEvents(deps, { quietMinutes: 10 })).toEqual({ started: [] });
    now = new Date(now.getTime() + 6 * 60_000);
    // …then starts its recount workflow (the local emulation of what AWS deploys), which ends exact.
    expect(await recountChangedEvents(deps, { quietMinutes: 10 })).toEqual({ started: [eventId] });
    await container.localJobs?.idle();
    const recounted = await statsOf();
    expect(recounted?.processedPhotos).toBe(exact?.processedPhotos);
    expect(recounted?.dorsalsDetected).toBe((exact?.dorsalsDetected ?? 0) + 1);
    expect(await deps.participants.participantCounts(eventId)).toEqual(new Map([...exactParticipants, ["9999", 1]]));
    // …and then leaves it alone until something moves its counters again.
    now = new Date(now.getTime() + 60 * 60_000);
    expect(await recountChangedEvents(deps, { quietMinutes: 10 })).toEqual({ started: [] });
  });

  it("words a step's final failure in Spanish: our reasons as they are, the platform's and libraries' replaced", async () => {
    const lambdaError = (errorType: string, errorMessage: string) => ({
      Error: errorType,
      Cause: JSON.stringify({ errorType, errorMessage, trace: [] }),
    });
    const cases = [
      [lambdaError("PermanentError", "La foto supera el máximo de 50 MB"), "La foto supera el máximo de 50 MB"],
      [lambdaError("Sandbox.Timedout", "Task timed out after 30.03 seconds"), photoFailureReasons.timedOut],
      [{ Error: "States.Timeout", Cause: "" }, photoFailureReasons.timedOut],
      [{ Error: "Error", Cause: "Input buffer contains unsupported image format" }, photoFailureReasons.unreadable],
      [lambdaError("InvalidImageFormatException", "Request has invalid image format"), photoFailureReasons.unreadable],
      [lambdaError("TypeError", "Cannot read properties of undefined (reading 'x')"), photoFailureReasons.unexpected],
    ] as const;
    for (const [index, [error, reason]] of cases.entries()) {
      const photoId = `0photofailedstep0000000000${index}`;
      const key = storagePaths.original(eventId, photoId, "jpg");
      await container.deps.photos.createPending(pendingRecord(photoId, key));
      await container.pipelineTasks.fail({ key, error });
      expect({ error, reason: (await container.deps.photos.get(photoId))?.failureReason }).toEqual({ error, reason });
    }
  });
});
