import type { PresignedUpload, PresignRequest, PresignResponse } from "@dorsal/shared";
import { ApiError, apiFetch, invalidResponseMessage } from "../../../lib/api-fetch";
import { contentTypeOf } from "./file-rules";

/**
 * Every way the browser sends photos lives in this module (presign, then PUT straight to the
 * object store), so the planned resumable multipart uploader can replace it behind the same
 * `uploadPhotos` signature.
 */

export interface PhotoToUpload {
  key: string;
  file: File;
}

export type PhotoUploadStatus = "pending" | "uploading" | "success" | "error";

export interface UploadObserver {
  onProgress(key: string, loadedBytes: number): void;
  onStatus(key: string, status: PhotoUploadStatus, error?: string): void;
}

export interface UploadOutcome {
  uploaded: number;
  failed: number;
  cancelled: boolean;
}

/** The presign contract accepts at most 200 files per call. */
const presignBatchSize = 200;
/** Enough to keep a phone's uplink busy without starving each file of bandwidth. */
const parallelUploads = 3;
/** Signed, or computed by the browser from the body: XMLHttpRequest refuses to set them. */
const browserControlledHeaders = new Set(["host", "content-length"]);

export const uploadCancelledMessage = "Subida cancelada";
export const uploadNetworkErrorMessage = "Error de red durante la subida";

export function presignPhotos(eventId: number, files: File[], signal?: AbortSignal): Promise<PresignResponse> {
  const body: PresignRequest = {
    eventId,
    files: files.map((file) => ({
      filename: file.name,
      contentType: contentTypeOf(file) ?? "application/octet-stream",
      size: file.size,
    })),
  };
  return apiFetch<PresignResponse>("/api/photos/presign", { method: "POST", body, signal });
}

/** XMLHttpRequest rather than fetch because only it reports upload progress in every browser. */
function putFile(
  upload: PresignedUpload,
  file: File,
  onProgress: (loadedBytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const settle = (error?: Error) => {
      signal.removeEventListener("abort", abort);
      if (error) reject(error);
      else resolve();
    };
    xhr.open("PUT", upload.url);
    for (const [name, value] of Object.entries(upload.headers)) {
      if (!browserControlledHeaders.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        settle();
      } else {
        settle(new Error(`Error ${xhr.status}: ${xhr.statusText || xhr.responseText.slice(0, 200)}`));
      }
    };
    xhr.onerror = () => settle(new Error(uploadNetworkErrorMessage));
    xhr.onabort = () => settle(new DOMException(uploadCancelledMessage, "AbortError"));
    signal.addEventListener("abort", abort, { once: true });
    xhr.send(file);
  });
}

async function runWithLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Uploads the photos of one event. URLs are requested batch by batch, right before use, so
 * they cannot expire while earlier batches are still uploading on a slow connection. A failed
 * photo does not stop the others; cancelling leaves the photos not yet sent as pending.
 */
export async function uploadPhotos(
  eventId: number,
  photos: PhotoToUpload[],
  observer: UploadObserver,
  signal: AbortSignal,
): Promise<UploadOutcome> {
  let uploaded = 0;
  let failed = 0;
  const fail = (key: string, message: string) => {
    failed++;
    observer.onStatus(key, "error", message);
  };

  for (let start = 0; start < photos.length && !signal.aborted; start += presignBatchSize) {
    const batch = photos.slice(start, start + presignBatchSize);
    let uploads: PresignedUpload[];
    try {
      ({ uploads } = await presignPhotos(
        eventId,
        batch.map((photo) => photo.file),
        signal,
      ));
      // The contract answers in request order; anything else cannot be matched to the files.
      if (uploads?.length !== batch.length) throw new ApiError(invalidResponseMessage, 200);
    } catch (error) {
      if (signal.aborted) break;
      for (const photo of batch) fail(photo.key, error instanceof Error ? error.message : String(error));
      continue;
    }

    await runWithLimit(
      batch.map((photo, index) => ({ photo, upload: uploads[index] as PresignedUpload })),
      parallelUploads,
      async ({ photo, upload }) => {
        if (signal.aborted) return;
        observer.onStatus(photo.key, "uploading");
        try {
          await putFile(upload, photo.file, (loaded) => observer.onProgress(photo.key, loaded), signal);
          uploaded++;
          observer.onStatus(photo.key, "success");
        } catch (error) {
          if (signal.aborted) {
            observer.onProgress(photo.key, 0);
            observer.onStatus(photo.key, "pending");
          } else {
            fail(photo.key, error instanceof Error ? error.message : String(error));
          }
        }
      },
    );
  }
  return { uploaded, failed, cancelled: signal.aborted };
}
