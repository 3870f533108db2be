import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { createLocalFaceDetector } from "../../functions/src/adapters/local/faces";
import { createSharedPixelPool, TEXT_SOURCE_LONG_SIDE, uprightPixels } from "../../functions/src/adapters/local/pixels";
import { contentTypes } from "../../functions/src/app/image-types";
import { storagePaths } from "../../functions/src/app/storage-paths";
import { composeInMemory } from "../../functions/src/compose";
import { type LocalConfig, parseConfig } from "../../functions/src/config";
import { activeEvent } from "../support/in-process";

/** Seconds one photo spent in each of the pipeline's own stages, on average. */
export interface StageSeconds {
  decode: number;
  variants: number;
  text: number;
  faces: number;
  /** Prepare (type check, hash) and record (bibs, counters), with the table and store in memory. */
  prepareAndRecord: number;
}

export interface CpuLimit {
  lanes: number;
  photos: number;
  photosPerMinute: number;
  /** The process's CPU (all threads) per photo: what the steps themselves cost. */
  cpuSecondsPerPhoto: number;
  stages: StageSeconds;
}

/** How many photos the one-at-a-time pass measures the stages on: enough for an average, cheap. */
const stagePhotos = 8;

/**
 * The most this machine can process: the pipeline's own steps (prepare, variants, detect, record)
 * called in this process, one lane per core, on the same engines the runtime uses, with the table
 * and the object store in memory — no HTTP, no storage or table stand-in, no state machine between
 * them. The first photo warms the engines (model load) and is not counted.
 *
 * The stages are measured apart, one photo at a time, as the process's CPU time around each step:
 * inside detect the engines overlap (text regions are found while faces are), so a stage's own
 * time cannot be read off a busy run. The photo is decoded once more, alone, and faces are found
 * once more, alone, by the same engine from the same pixels: that CPU is theirs (detect reports
 * wall times, which another process's load stretches: a wall-time decode once made text's share
 * negative); text is the rest of detect's CPU.
 */
export async function measureCpuLimit(files: string[]): Promise<CpuLimit> {
  const lanes = availableParallelism();
  const config = parseConfig({
    DORSAL_RUNTIME: "local",
    TABLE_NAME: "memory",
    ORIGINALS_BUCKET: "originals",
    DERIVED_BUCKET: "derived",
    // Never reached: composeInMemory holds the table and the objects itself.
    DYNAMODB_ENDPOINT: "http://127.0.0.1:9",
    S3_ENDPOINT: "http://127.0.0.1:9",
    DATA_DIR: "(memory)",
    LOG_LEVEL: "warn",
  }) as LocalConfig;
  const container = await composeInMemory(config);
  // The same engine as the pipeline's, for the faces' own CPU in the stage pass.
  const faceDetector = await createLocalFaceDetector();
  const sharedPixels = createSharedPixelPool();
  const { deps, pipelineTasks: tasks } = container;
  try {
    const eventId = await deps.events.nextId();
    await deps.events.create(activeEvent(eventId, "Límite de CPU"));
    const cpuMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const stages: StageSeconds = { decode: 0, variants: 0, text: 0, faces: 0, prepareAndRecord: 0 };
    const processOne = async (file: string, measure?: StageSeconds) => {
      const key = storagePaths.original(eventId, deps.ids.newId(), "jpg");
      const bytes = await readFile(file);
      await deps.objects.put("originals", key, bytes, contentTypes.jpeg, bytes.length);
      const input = { bucket: "originals", key, size: bytes.length, version: "1" };
      // Each step reads only what the state machine would have passed it by then.
      const beforePrepare = cpuMs();
      const photo = await tasks.prepare(input);
      const beforeVariants = cpuMs();
      const variants = await tasks.variants({ photo });
      const beforeDetect = cpuMs();
      const detection = await tasks.detect({ photo, variants });
      const beforeRecord = cpuMs();
      await tasks.record({ ...input, photo, variants, detection });
      const done = cpuMs();
      if (!measure) return;
      const beforeDecode = cpuMs();
      const lease = sharedPixels.lease(await uprightPixels(bytes, TEXT_SOURCE_LONG_SIDE));
      const decode = cpuMs() - beforeDecode;
      const beforeFaces = cpuMs();
      await faceDetector.detectFaces(lease.pixels);
      const faces = cpuMs() - beforeFaces;
      lease.release();
      measure.prepareAndRecord += beforeVariants - beforePrepare + (done - beforeRecord);
      measure.variants += beforeDetect - beforeVariants;
      measure.decode += decode;
      measure.faces += faces;
      measure.text += beforeRecord - beforeDetect - decode - faces;
    };
    await processOne(files[0] as string);
    const measured = files.slice(0, stagePhotos);
    for (const file of measured) await processOne(file, stages);

    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < files.length) await processOne(files[next++] as string);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const perPhoto = (ms: number, photos: number) => Number((ms / 1000 / photos).toFixed(3));
    const stagePerPhoto = (ms: number) => perPhoto(ms, measured.length);
    return {
      lanes,
      photos: files.length,
      photosPerMinute: Number(((files.length / seconds) * 60).toFixed(1)),
      cpuSecondsPerPhoto: perPhoto((cpu.user + cpu.system) / 1000, files.length),
      stages: {
        decode: stagePerPhoto(stages.decode),
        variants: stagePerPhoto(stages.variants),
        text: stagePerPhoto(stages.text),
        faces: stagePerPhoto(stages.faces),
        prepareAndRecord: stagePerPhoto(stages.prepareAndRecord),
      },
    };
  } finally {
    await Promise.all([container.close(), faceDetector.close()]);
  }
}
