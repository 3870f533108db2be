import type { Readable } from "node:stream";
import { limits, messages, type ZipSkippedEntry, zipSkipReasons, zipTooLargeMessage } from "@dorsal/shared";
import yauzl from "yauzl";
import type { PhotoRecord } from "../data/photos";
import type { ZipBatchRecord } from "../data/zip-batches";
import type { Logger } from "../logger";
import type { Deps } from "./deps";
import { contentTypes } from "./image-types";
import { pendingPhoto } from "./uploads";
import {
  classifyEntryContent,
  classifyEntryName,
  countFiles,
  entryName,
  ObjectRangeReader,
  openEntry,
  splitHead,
  zipOptions,
} from "./zip-reading";

export type ZipExtractionDeps = Pick<Deps, "config" | "clock" | "ids" | "objects" | "photos" | "zipBatches">;

/** Entries extracted at once: enough to hide request latency, few enough to keep memory flat. */
const entryConcurrency = 8;
/** Bytes read from the start of an entry to tell an image from anything else. */
const headLength = 512;
/** Skipped entries kept by name on the batch (the count is always complete); bounds the item's size. */
const skippedListLimit = 200;
const progressIntervalMs = 1000;

/** The photo id of entry `entry` of a batch: the same on every run, so a re-run creates nothing twice. */
export const zipPhotoId = (batchId: string, entry: number) => `${batchId}${String(entry).padStart(5, "0")}`;

interface EntryOutcome {
  extracted: boolean;
  skipped?: ZipSkippedEntry;
}

/**
 * Extracts one batch, started by the ZIP's object-created event (or by a restart, for a batch that
 * was interrupted). Idempotent: the batch moves to `extracting` only from `uploading` or
 * `extracting`, each entry's photo has a deterministic id, and a photo already written is not
 * written again, so a redelivered event or a resumed run creates nothing twice.
 */
export async function importZip(
  deps: ZipExtractionDeps,
  logger: Logger,
  batchId: string,
  // Spec §2.5's cap; a test passes a small one, since 5000 real entries take over a minute to extract.
  maxPhotos: number = limits.zipMaxPhotos,
): Promise<ZipBatchRecord | undefined> {
  const batch = await deps.zipBatches.get(batchId);
  if (!batch) {
    logger.warn("ZIP without a batch: ignored", { batchId });
    return undefined;
  }
  const now = () => deps.clock.now();
  const head = await deps.objects.head("originals", batch.key);
  // Not there yet (uploading), or already extracted and deleted (a redelivered event). Extracting
  // without its ZIP can only mean the object was removed by hand: that batch cannot finish.
  if (!head) {
    return batch.status === "extracting" ? deps.zipBatches.fail(batchId, messages.zipProcessingError, now()) : batch;
  }
  if (head.size > deps.config.ZIP_MAX_BYTES) {
    return deps.zipBatches.fail(batchId, zipTooLargeMessage(deps.config.ZIP_MAX_BYTES), now());
  }
  const started = await deps.zipBatches.startExtracting(batchId, now());
  if (!started) return batch;

  try {
    const reader = new ObjectRangeReader(deps.objects, batch.key, head.size);
    const totalFiles = await countFiles(await yauzl.fromRandomAccessReaderPromise(reader, head.size, zipOptions));
    await deps.zipBatches.reportProgress(batchId, { totalFiles }, now());

    const zip = await yauzl.fromRandomAccessReaderPromise(reader, head.size, zipOptions);
    // Only the first skipped entries are kept (an archive may hold millions): sorted and cut back
    // whenever the list doubles, so memory stays flat whatever the archive holds.
    const skipped: (ZipSkippedEntry & { index: number })[] = [];
    let skippedFiles = 0;
    const skip = (entry: ZipSkippedEntry & { index: number }) => {
      skippedFiles++;
      skipped.push(entry);
      if (skipped.length > 2 * skippedListLimit) {
        skipped.sort((a, b) => a.index - b.index);
        skipped.length = skippedListLimit;
      }
    };
    let extracted = 0;
    let accepted = 0;
    let lastReport = Date.now();
    let failure: unknown;
    const inFlight = new Set<Promise<void>>();

    const handle = async (entry: yauzl.Entry, index: number, name: string) => {
      const outcome =
        accepted >= maxPhotos
          ? { extracted: false, skipped: { name, reason: zipSkipReasons.tooManyPhotos } }
          : await extractEntry(deps, batch, zip, entry, index, name, () => {
              if (accepted >= maxPhotos) return false;
              accepted++;
              return true;
            });
      if (outcome.extracted) extracted++;
      if (outcome.skipped) skip({ ...outcome.skipped, index });
      if (Date.now() - lastReport >= progressIntervalMs) {
        lastReport = Date.now();
        await deps.zipBatches.reportProgress(batchId, { extractedFiles: extracted }, now());
      }
    };

    const holdAfter = deps.config.DORSAL_RUNTIME === "local" ? deps.config.FAULT_HOLD_ZIP_AFTER_ENTRIES : undefined;
    let index = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (index === holdAfter)
          await holdForever(logger, batchId, inFlight, () =>
            deps.zipBatches.reportProgress(batchId, { extractedFiles: extracted }, now()),
          );
        const name = entryName(entry);
        const verdict = classifyEntryName(name);
        if (verdict.kind === "skip") skip({ name, reason: verdict.reason, index });
        if (verdict.kind === "candidate") {
          // Failures are kept, not thrown, so none goes unhandled while the loop awaits the next entry.
          const task: Promise<void> = handle(entry, index, name)
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => inFlight.delete(task));
          inFlight.add(task);
          if (inFlight.size >= entryConcurrency) await Promise.race(inFlight);
        }
        if (failure) break;
        index++;
      }
    } finally {
      await Promise.all(inFlight);
      zip.close();
    }
    if (failure) throw failure;

    skipped.sort((a, b) => a.index - b.index);
    const result = {
      totalFiles,
      extractedFiles: extracted,
      skippedFiles,
      skipped: skipped.slice(0, skippedListLimit).map(({ name, reason }) => ({ name: name.slice(0, 255), reason })),
    };
    const finished =
      extracted === 0
        ? await deps.zipBatches.fail(batchId, messages.zipNoImages, now(), result)
        : await deps.zipBatches.finishExtraction(batchId, result, now());
    // Every photo is in the originals now: the ZIP is only a copy (AWS would expire it after 3 days).
    await deps.objects.delete("originals", batch.key);
    if (finished?.status === "processing") return deps.zipBatches.completeIfSettled(finished, now());
    return finished ?? deps.zipBatches.get(batchId);
  } catch (error) {
    logger.error("ZIP extraction failed", { batchId, error });
    return deps.zipBatches.fail(batchId, messages.zipProcessingError, now());
  }
}

/** FAULT_HOLD_ZIP_AFTER_ENTRIES: the entries under way finish and are reported, then nothing more happens. */
async function holdForever(
  logger: Logger,
  batchId: string,
  inFlight: Set<Promise<void>>,
  report: () => Promise<unknown>,
): Promise<never> {
  await Promise.all(inFlight);
  await report();
  logger.warn("ZIP extraction held (FAULT_HOLD_ZIP_AFTER_ENTRIES)", { batchId });
  return new Promise<never>(() => {});
}

/**
 * One entry (the corrupt ones are skipped; a storage or table failure stops the batch): refused by size, encryption or method from the central directory alone; otherwise
 * its first bytes decide (image, nested archive, anything else), and an image is streamed into the
 * event's originals under a pending photo record written first, as every upload does.
 */
async function extractEntry(
  deps: Pick<Deps, "clock" | "ids" | "objects" | "photos">,
  batch: ZipBatchRecord,
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  index: number,
  name: string,
  takeSlot: () => boolean,
): Promise<EntryOutcome> {
  const skip = (reason: string): EntryOutcome => ({ extracted: false, skipped: { name, reason } });
  if (entry.isEncrypted()) return skip(zipSkipReasons.encrypted);
  if (!entry.canDecodeFileData()) return skip(zipSkipReasons.unreadable);
  if (entry.uncompressedSize > limits.photoMaxBytes) return skip(zipSkipReasons.tooLarge);

  const filename = name.split("/").pop() ?? name;
  const photoId = zipPhotoId(batch.batchId, index);
  const existing = await deps.photos.get(photoId);
  if (existing?.processingStatus === "failed" && existing.failureReason === zipSkipReasons.unreadable) {
    return skip(zipSkipReasons.unreadable);
  }
  if (existing && (await alreadyStored(deps, existing, entry.uncompressedSize))) {
    return takeSlot() ? { extracted: true } : skip(zipSkipReasons.tooManyPhotos);
  }

  let stream: Readable;
  let split: Awaited<ReturnType<typeof splitHead>>;
  try {
    stream = await openEntry(zip, entry);
    split = await splitHead(stream, headLength);
  } catch {
    return skip(zipSkipReasons.unreadable);
  }
  const verdict = classifyEntryContent(split.head);
  if ("reason" in verdict) {
    stream.destroy();
    return skip(verdict.reason);
  }
  if (!takeSlot()) {
    stream.destroy();
    return skip(zipSkipReasons.tooManyPhotos);
  }

  const photo = pendingPhoto(deps, { userId: batch.uploadedBy }, batch.eventId, filename, {
    id: photoId,
    zip: { batchId: batch.batchId, entry: index },
  });
  await deps.photos.createPending(photo);
  let entryFailed = false;
  stream.once("error", () => {
    entryFailed = true;
  });
  try {
    await deps.objects.put(
      "originals",
      photo.originalKey,
      split.body(),
      contentTypes[verdict.imageType],
      entry.uncompressedSize,
    );
  } catch (error) {
    stream.destroy();
    if (!entryFailed) throw error;
    // A corrupt entry: its record must not wait forever as pending.
    await deps.photos.markFailed(photoId, zipSkipReasons.unreadable, deps.clock.now(), batch.eventId);
    return skip(zipSkipReasons.unreadable);
  }
  return { extracted: true };
}

/**
 * A photo of an earlier run whose original is stored whole. By the object, not the record's
 * status: a record left pending by a crash may have been failed since by the start-up sweep
 * ("La subida no se completó"); writing its original now lets the pipeline reopen it.
 */
export async function alreadyStored(deps: Pick<Deps, "objects">, photo: PhotoRecord, size: number): Promise<boolean> {
  const stored = await deps.objects.head("originals", photo.originalKey);
  return stored?.size === size;
}
