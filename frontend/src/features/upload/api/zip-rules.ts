import { limits, messages, type ZipBatchStatus, type ZipBatchStatusResponse, zipTooLargeMessage } from "@dorsal/shared";

/** Spec §4: the batch is asked about every 2 s until it is completed or failed. */
export const zipPollEveryMs = 2000;
/** Failed status checks in a row before the screen gives up and says so. */
export const zipPollMaxFailures = 3;

export const zipAcceptAttribute = ".zip,application/zip,application/x-zip-compressed";

export const zipCheckFailedMessage = "Error al verificar el progreso";

/** An interrupted multipart upload the store no longer has: the batch waits for the whole file again. */
export const zipUploadGoneMessage =
  "La subida anterior ya no está en el almacenamiento. Reanudar subida del ZIP enviará el archivo completo.";

/** Spec §8: the name must end in .zip and the size stay under the configured maximum (2 GB). */
export function checkZipFile(file: Pick<File, "name" | "size">, maxBytes: number = limits.zipMaxBytes): string | null {
  if (!/\.zip$/i.test(file.name.trim()) || file.size <= 0) return messages.zipInvalidName;
  if (file.size > maxBytes) return zipTooLargeMessage(maxBytes);
  return null;
}

export const zipStatusLabels: Record<ZipBatchStatus, string> = {
  uploading: "Subiendo",
  extracting: "Extrayendo",
  processing: "Procesando",
  completed: "Completado",
  error: "Error",
};

export const zipStatusPalettes: Record<ZipBatchStatus, string> = {
  uploading: "blue",
  extracting: "blue",
  processing: "blue",
  completed: "green",
  error: "red",
};

export function isFinalZipStatus(status: ZipBatchStatus): boolean {
  return status === "completed" || status === "error";
}

type BatchCounts = Pick<
  ZipBatchStatusResponse,
  "status" | "totalFiles" | "extractedFiles" | "processedFiles" | "skippedFiles"
>;

/**
 * How far the import is, as one percentage: each file of the ZIP is extracted or skipped, and each
 * extracted photo is then processed. Before the central directory is read the total is unknown (0).
 */
export function zipBatchPercent(batch: BatchCounts): number {
  if (batch.status === "completed") return 100;
  const { totalFiles, extractedFiles, processedFiles, skippedFiles } = batch;
  if (totalFiles <= 0) return 0;
  const work = 2 * totalFiles - skippedFiles;
  const done = extractedFiles + skippedFiles + processedFiles;
  return Math.max(0, Math.min(100, Math.round((done / work) * 100)));
}
