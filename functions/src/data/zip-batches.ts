import type { ZipBatchStatusResponse } from "@dorsal/shared";
import type { Table } from "../ports/table";
import { activeZipBatchesPartition, keys } from "./keys";
import { queryAll } from "./query-all";

/** The batch as stored: its public status plus what the server keeps to itself. */
export interface ZipBatchRecord extends Omit<ZipBatchStatusResponse, "success"> {
  filename: string;
  /** What the client said it would send; the stored object's size is checked again before extraction. */
  declaredSize: number;
  /** The ZIP's object key in the originals bucket. */
  key: string;
  uploadedBy: string;
  /** A drive import's folder (functions/src/app/drive-import.ts): its files are the entries, `key` only starts it. */
  driveFolderId?: string;
  createdAt: string;
  updatedAt: string;
}

/** A new batch's status and counts, before its ZIP has arrived. */
export const newBatchFields = {
  status: "uploading",
  totalFiles: 0,
  extractedFiles: 0,
  processedFiles: 0,
  skippedFiles: 0,
  skipped: [],
  error: null,
} satisfies Partial<ZipBatchRecord>;

/**
 * A settled photo is flagged on the batch item itself (`s{entry}`), in the same conditional update
 * that adds it to `processedFiles`: one atomic single-item write, so a re-run pipeline step can
 * never count a photo twice and a crash can never leave it flagged but uncounted. 5000 flags of a
 * few bytes keep the item far below DynamoDB's 400 KB.
 */
const settledFlag = (entry: number) => `s${entry}`;

const unfinished = [
  { attribute: "status", op: "<>", value: "processing" },
  { attribute: "status", op: "<>", value: "completed" },
  { attribute: "status", op: "<>", value: "error" },
] as const;

export function createZipBatchRepository(table: Table) {
  const stamp = (now: Date) => ({ updatedAt: now.toISOString() });
  return {
    async create(batch: ZipBatchRecord): Promise<void> {
      await table.put(
        {
          type: "zipBatch",
          ...batch,
          ...keys.zipBatch(batch.batchId),
          ...keys.activeZipBatchesIndex(batch.createdAt, batch.batchId),
          ...keys.zipBatchesOfEventIndex(batch.eventId, batch.createdAt, batch.batchId),
        },
        { ifAbsent: true },
      );
    },

    get: (batchId: string) => table.get<ZipBatchRecord>(keys.zipBatch(batchId)),

    /**
     * `uploading` (or an interrupted `extracting`) → `extracting`. Undefined when the batch is
     * unknown or already past extraction: a redelivered storage event then changes nothing.
     */
    startExtracting: (batchId: string, now: Date) =>
      table.update<ZipBatchRecord>({
        key: keys.zipBatch(batchId),
        set: { status: "extracting", ...stamp(now) },
        conditions: [{ attribute: "pk", op: "exists" }, ...unfinished],
      }),

    /** Progress while extracting: set, not added, so a resumed run reports the same numbers. */
    async reportProgress(
      batchId: string,
      progress: Partial<Pick<ZipBatchRecord, "totalFiles" | "extractedFiles">>,
      now: Date,
    ): Promise<void> {
      await table.update({
        key: keys.zipBatch(batchId),
        set: { ...progress, ...stamp(now) },
        conditions: [{ attribute: "status", op: "=", value: "extracting" }],
      });
    },

    /** Every entry was written or skipped: the photos are now the pipeline's. */
    finishExtraction: (
      batchId: string,
      result: Pick<ZipBatchRecord, "totalFiles" | "extractedFiles" | "skippedFiles" | "skipped">,
      now: Date,
    ) =>
      table.update<ZipBatchRecord>({
        key: keys.zipBatch(batchId),
        set: { ...result, status: "processing", ...stamp(now) },
        conditions: [{ attribute: "status", op: "=", value: "extracting" }],
      }),

    /** Ends a batch that cannot go on, with its reason; a completed batch stays completed. */
    fail: (
      batchId: string,
      reason: string,
      now: Date,
      result: Partial<Pick<ZipBatchRecord, "totalFiles" | "extractedFiles" | "skippedFiles" | "skipped">> = {},
    ) =>
      table.update<ZipBatchRecord>({
        key: keys.zipBatch(batchId),
        set: { ...result, status: "error", error: reason, ...stamp(now) },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: "status", op: "<>", value: "completed" },
        ],
      }),

    /** Counts one extracted photo as settled; undefined when it already was (a re-run step). */
    markSettled: (batchId: string, entry: number, now: Date) =>
      table.update<ZipBatchRecord>({
        key: keys.zipBatch(batchId),
        set: { [settledFlag(entry)]: true, ...stamp(now) },
        add: { processedFiles: 1 },
        conditions: [
          { attribute: "pk", op: "exists" },
          { attribute: settledFlag(entry), op: "not_exists" },
        ],
      }),

    /**
     * `processing` → `completed` once every extracted photo has settled. Both the last settling
     * photo and the end of extraction call this with the item their own update returned, so
     * whichever happens second sees both numbers and completes the batch.
     */
    async completeIfSettled(batch: ZipBatchRecord, now: Date): Promise<ZipBatchRecord> {
      if (batch.status !== "processing" || batch.processedFiles < batch.extractedFiles) return batch;
      const completed = await table.update<ZipBatchRecord>({
        key: keys.zipBatch(batch.batchId),
        set: { status: "completed", ...stamp(now) },
        remove: ["gsi2pk", "gsi2sk"],
        conditions: [{ attribute: "status", op: "=", value: "processing" }],
      });
      return completed ?? batch;
    },

    /** Batches not yet completed or failed, oldest first (what a restarted runtime resumes). */
    async listActive(): Promise<ZipBatchRecord[]> {
      return queryAll<ZipBatchRecord>(table, { index: "gsi2", partition: activeZipBatchesPartition });
    },
  };
}
export type ZipBatchRepository = ReturnType<typeof createZipBatchRepository>;
