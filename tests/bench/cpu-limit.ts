import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { contentTypes } from "../../functions/src/app/image-types";
import type { ExecutionState } from "../../functions/src/app/pipeline";
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

/**
 * The most this machine can process: the pipeline's own steps (prepare, variants, detect, record)
 * called in this process, one lane per core, on the same engines the runtime uses, with the table
 * and the object store in memory — no HTTP, no storage or table stand-in, no state machine between
 * them. The first photo warms the engines (model load) and is not counted.
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
  const { deps, pipelineTasks: tasks } = container;
  try {
    const eventId = await deps.events.nextId();
    await deps.events.create(activeEvent(eventId, "Límite de CPU"));
    const stages: StageSeconds = { decode: 0, variants: 0, text: 0, faces: 0, prepareAndRecord: 0 };
    const processOne = async (file: string, counted: boolean) => {
      const key = storagePaths.original(eventId, deps.ids.newId(), "jpg");
      const bytes = await readFile(file);
      await deps.objects.put("originals", key, bytes, contentTypes.jpeg, bytes.length);
      const input = { bucket: "originals", key, size: bytes.length, version: "1" };
      const started = performance.now();
      // Each step reads only what the state machine would have passed it by then.
      const photo = await tasks.prepare(input as ExecutionState);
      const variants = await tasks.variants({ ...input, photo } as ExecutionState);
      const detection = await tasks.detect({ ...input, photo, variants } as ExecutionState);
      await tasks.record({ ...input, photo, variants, detection });
      if (!counted) return;
      const total = performance.now() - started;
      const { ms } = detection;
      const variantsMs = variants.ms;
      stages.decode += ms.decode;
      stages.variants += variantsMs;
      stages.text += ms.text;
      stages.faces += ms.faces;
      stages.prepareAndRecord += total - variantsMs - ms.decode - ms.text - ms.faces;
    };
    await processOne(files[0] as string, false);

    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < files.length) await processOne(files[next++] as string, true);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const perPhoto = (ms: number) => Number((ms / 1000 / files.length).toFixed(3));
    return {
      lanes,
      photos: files.length,
      photosPerMinute: Number(((files.length / seconds) * 60).toFixed(1)),
      cpuSecondsPerPhoto: perPhoto((cpu.user + cpu.system) / 1000),
      stages: {
        decode: perPhoto(stages.decode),
        variants: perPhoto(stages.variants),
        text: perPhoto(stages.text),
        faces: perPhoto(stages.faces),
        prepareAndRecord: perPhoto(stages.prepareAndRecord),
      },
    };
  } finally {
    await container.close();
  }
}
