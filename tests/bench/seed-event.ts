/**
 * Seeding for the benchmarks that read a big event (bench:search, bench:scale): the items the
 * pipeline leaves behind for processed photos, written straight into a fresh dynalite data dir
 * with the project's own repositories — no pipeline, no images — before the runtime starts on it.
 */
import { createHash } from "node:crypto";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { createDynamoTable } from "../../functions/src/adapters/aws/dynamodb-table";
import { createIds, systemClock } from "../../functions/src/adapters/system/system";
import { storagePaths } from "../../functions/src/app/storage-paths";
import { createBibLinkRepository } from "../../functions/src/data/bib-links";
import { createPhotoRepository, newPhotoFields, type PhotoRecord } from "../../functions/src/data/photos";
import { createSalesRepository } from "../../functions/src/data/sales";
import { createUserRepository } from "../../functions/src/data/users";
import type { Table } from "../../functions/src/ports/table";
import { pendingSale } from "../support/sales";

/** The runtime's defaults (functions/local/settings.ts, main.ts): the seeded table is the one it opens. */
export const benchTableName = "dorsal";
const region = "us-east-1";

/** Runs `work` over `items` with at most `width` in flight (dynalite answers one request at a time anyway). */
export async function inPool<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** A deterministic stand-in for randomness, so every run seeds the same items. */
export function pseudoRandom(seed: number) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Opens dynalite on `dataDir` (creating the runtime's table), hands the table to `work`, and closes it. */
export async function withBenchTable<T>(dataDir: string, work: (table: Table) => Promise<T>): Promise<T> {
  const dynamo = await startDynalite(dataDir);
  try {
    await ensureTable(dynamo.endpoint, region, benchTableName);
    return await work(createDynamoTable(dynamo.send, benchTableName));
  } finally {
    await dynamo.close();
  }
}

/** The text a race photo shows besides bibs: sponsors, the race's name, other runners' shirts. */
const sceneText = ["MEDIA", "MARATON", "MEDELLIN", "2026", "POSTOBON", "ADIDAS", "21K", "META", "HIDRATACION", "KM 15"];

/**
 * A processed photo as the pipeline's record step leaves it: the engine's every LINE and WORD
 * (10–40 of them, boxes at full precision; stored in the photo's text item), 1–4 faces, per-stage
 * timings. Reads of the photo pay for all but the text unless they ask for less.
 */
export function processedPhoto(eventId: number, index: number, bibs: string[], uploadedAt: Date): PhotoRecord {
  const random = pseudoRandom(index + 1);
  const box = () => ({ left: random() * 0.8, top: random() * 0.8, width: random() * 0.2, height: random() * 0.1 });
  const id = `bench${String(eventId).padStart(3, "0")}${String(index).padStart(8, "0")}`;
  const machineBibs = bibs.map((number) => ({
    number,
    confidence: 90 + random() * 10,
    box: box(),
    source: "machine" as const,
  }));
  const words = [
    ...machineBibs.map(({ number, confidence, box }) => ({ text: number, confidence, box })),
    ...Array.from({ length: 5 + Math.floor(random() * 16) }, () => ({
      text: sceneText[Math.floor(random() * sceneText.length)] as string,
      confidence: 60 + random() * 40,
      box: box(),
    })),
  ];
  return {
    ...newPhotoFields,
    id,
    eventId,
    filename: `${id}.jpg`,
    originalFilename: `IMG_${String(4000 + index).padStart(4, "0")}.JPG`,
    originalKey: storagePaths.original(eventId, id, "jpg"),
    webKey: storagePaths.web(eventId, id),
    thumbnailKey: storagePaths.thumbnail(eventId, id),
    previewKey: storagePaths.preview(eventId, id),
    previewThumbnailKey: storagePaths.previewThumbnail(eventId, id),
    detectedDorsals: bibs,
    bibs: machineBibs,
    machineBibs,
    // Each word under its own line, as Rekognition answers for single-word lines.
    textDetections: words.flatMap(({ text, confidence, box }, at) => [
      { type: "LINE" as const, text, confidence, box, id: at * 2 },
      { type: "WORD" as const, text, confidence, box, id: at * 2 + 1, parentId: at * 2 },
    ]),
    imageSize: { width: 4000, height: 3000 },
    faces: Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ confidence: 90 + random() * 10, box: box() })),
    processed: true,
    processingStatus: "successful",
    uploadedAt: uploadedAt.toISOString(),
    uploadedBy: "bench-photographer",
    processedAt: new Date(uploadedAt.getTime() + 4000).toISOString(),
    recognition: {
      engine: "bench",
      version: "1",
      ms: { variants: 310 + random() * 100, decode: 95.2, text: 420 + random() * 200, faces: 130 + random() * 50 },
    },
    contentHash: createHash("sha256").update(id).digest("hex"),
    countedInTotal: true,
    attempts: 1,
  };
}

export const benchBibOf = (index: number) => String(1001 + index);

export interface EventShape {
  eventId: number;
  photos: number;
  bibs: number;
  /** One photo in this many is processed with no bib ("Sin dorsal"); none when absent. */
  unbibbedEvery?: number;
  /** One photo in this many failed processing (the failed list); none when absent. */
  failedEvery?: number;
  /** Store each processed photo's raw text item too (bench:search reads it nowhere, but it is part of the table). */
  text: boolean;
  raceStart: Date;
}

/**
 * Seeds one event's photos and bib links through the repositories, as the pipeline would leave them:
 * photo i shows bib i mod `bibs`; every fourth photo shows a second bib too (a pack of runners).
 * Links go through the bib links' own write, which keeps the participants' and the event's bib
 * counts. Returns how many links, unbibbed and failed photos it made; the event item and its
 * photo counters are the caller's.
 */
export async function seedEventPhotos(
  table: Table,
  shape: EventShape,
): Promise<{ links: number; unbibbed: number; failed: number }> {
  const photos = createPhotoRepository(table);
  const bibLinks = createBibLinkRepository(table);
  let links = 0;
  let unbibbed = 0;
  let failed = 0;
  await inPool(
    Array.from({ length: shape.photos }, (_, index) => index),
    16,
    async (index) => {
      const uploadedAt = new Date(shape.raceStart.getTime() + index * 1500);
      const isFailed = shape.failedEvery !== undefined && index % shape.failedEvery === shape.failedEvery - 1;
      const isUnbibbed =
        !isFailed && shape.unbibbedEvery !== undefined && index % shape.unbibbedEvery === shape.unbibbedEvery - 2;
      const bibs = [benchBibOf(index % shape.bibs)];
      if (index % 4 === 0) bibs.push(benchBibOf((index * 7 + 3) % shape.bibs));
      const { textDetections = [], ...photo } = processedPhoto(
        shape.eventId,
        index,
        isUnbibbed || isFailed ? [] : [...new Set(bibs)],
        uploadedAt,
      );
      if (isFailed) {
        const pending: PhotoRecord = { ...photo, ...newPhotoFields, processingStatus: "pending" };
        if (!(await photos.createPending(pending))) throw new Error(`photo ${photo.id} already exists`);
        await photos.markFailed(
          photo.id,
          "No se pudo leer la imagen",
          new Date(uploadedAt.getTime() + 4000),
          shape.eventId,
        );
        failed++;
        return;
      }
      if (!(await photos.createPending(photo))) throw new Error(`photo ${photo.id} already exists`);
      if (shape.text) await photos.storeText(photo.id, textDetections);
      if (isUnbibbed) {
        // Through the bib write, which lists the photo under "Sin dorsal" as the record step does.
        const stored = await photos.get(photo.id);
        if (
          !stored ||
          !(await photos.writeBibs(stored, 0, {
            machineBibs: [],
            manualBibs: photo.manualBibs,
            bibs: [],
            detectedDorsals: [],
            bibSuggestions: [],
          }))
        )
          throw new Error(`photo ${photo.id} was not listed as unbibbed`);
        unbibbed++;
        return;
      }
      for (const bib of photo.detectedDorsals) {
        await bibLinks.linkBib(shape.eventId, bib, photo.id, photo.uploadedAt);
        links++;
      }
    },
  );
  return { links, unbibbed, failed };
}

/** Paid sales of the event through the sales repository's writes, one every 180/`count` days back from now. */
export async function seedSales(table: Table, eventId: number, count: number, bibs: number): Promise<void> {
  const sales = createSalesRepository(table);
  const now = Date.now();
  const spacingMs = (180 * 86_400_000) / count;
  await inPool(
    Array.from({ length: count }, (_, index) => index),
    16,
    async (index) => {
      const at = new Date(now - 60_000 - index * spacingMs);
      const id = `benchsale${String(index).padStart(6, "0")}`;
      const sale = pendingSale(id, at, {
        eventId,
        dorsalNumber: benchBibOf(index % bibs),
        photoIds: [`bench${String(eventId).padStart(3, "0")}${String(index).padStart(8, "0")}`],
        amount: 15000 + (index % 4) * 5000,
        customerEmail: `comprador${index}@example.co`,
        customerName: "Comprador de Carga",
        tokenHash: `bench-token-${id}`,
      });
      if (!(await sales.create(sale))) throw new Error(`sale ${id} already exists`);
      const paid = await sales.markPaid(sale, {
        transactionId: `tx-${id}`,
        paymentMethod: "CARD",
        statusMessage: null,
        at,
      });
      if (!paid) throw new Error(`sale ${id} was not paid`);
      await sales.countPaid(paid);
    },
  );
}

/** Athlete accounts as sign-up leaves them (the hash is never checked here: nobody signs in as them). */
export async function seedUsers(table: Table, count: number): Promise<void> {
  const users = createUserRepository(table, createIds(systemClock), systemClock);
  await inPool(
    Array.from({ length: count }, (_, index) => index),
    16,
    async (index) => {
      const created = await users.create({
        email: `atleta${index}@example.co`,
        passwordHash: "bench-not-a-real-hash",
        role: "athlete",
        name: `Atleta ${index}`,
        assignedEventId: null,
      });
      if (!created) throw new Error(`user ${index} already exists`);
    },
  );
}
