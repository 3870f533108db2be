import { limits, messages, zipTooLargeMessage } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { checkZipFile, isFinalZipStatus, zipBatchPercent, zipStatusLabels } from "./zip-rules";

describe("checkZipFile", () => {
  it("accepts a .zip of any case under the maximum", () => {
    expect(checkZipFile({ name: "carrera.zip", size: 1000 })).toBeNull();
    expect(checkZipFile({ name: "CARRERA.ZIP", size: limits.zipMaxBytes })).toBeNull();
  });

  it("refuses another extension or an empty file with the spec's text", () => {
    expect(checkZipFile({ name: "carrera.rar", size: 1000 })).toBe(messages.zipInvalidName);
    expect(checkZipFile({ name: "carrera.zip.jpg", size: 1000 })).toBe(messages.zipInvalidName);
    expect(checkZipFile({ name: "carrera.zip", size: 0 })).toBe(messages.zipInvalidName);
  });

  it("refuses a ZIP over the maximum, naming it", () => {
    expect(checkZipFile({ name: "carrera.zip", size: limits.zipMaxBytes + 1 })).toBe(messages.zipTooLarge);
    expect(checkZipFile({ name: "carrera.zip", size: 300 * 1024 * 1024 }, 200 * 1024 * 1024)).toBe(
      zipTooLargeMessage(200 * 1024 * 1024),
    );
  });
});

describe("zip batch status", () => {
  it("names every status in Spanish", () => {
    expect(zipStatusLabels).toEqual({
      uploading: "Subiendo",
      extracting: "Extrayendo",
      processing: "Procesando",
      completed: "Completado",
      error: "Error",
    });
  });

  it("stops polling only when completed or failed", () => {
    expect(isFinalZipStatus("completed")).toBe(true);
    expect(isFinalZipStatus("error")).toBe(true);
    expect(isFinalZipStatus("extracting")).toBe(false);
    expect(isFinalZipStatus("processing")).toBe(false);
  });

  it("counts extraction and processing towards one percentage", () => {
    const batch = { totalFiles: 4, extractedFiles: 0, processedFiles: 0, skippedFiles: 0 };
    expect(zipBatchPercent({ ...batch, status: "uploading", totalFiles: 0 })).toBe(0);
    expect(zipBatchPercent({ ...batch, status: "extracting" })).toBe(0);
    // 2 photos extracted, 2 entries skipped: half the extraction and none of the processing of 2 photos.
    expect(zipBatchPercent({ ...batch, status: "processing", extractedFiles: 2, skippedFiles: 2 })).toBe(67);
    expect(
      zipBatchPercent({ ...batch, status: "processing", extractedFiles: 2, skippedFiles: 2, processedFiles: 2 }),
    ).toBe(100);
    expect(zipBatchPercent({ ...batch, status: "completed", totalFiles: 0 })).toBe(100);
  });
});
