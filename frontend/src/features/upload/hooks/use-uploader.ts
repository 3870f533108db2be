import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { createPhotoUploader, type PhotoFile, type PhotoUppy, uploadErrorMessage } from "../api/direct-upload";
import { fileKey, partitionFiles, rejectionMessages } from "../api/file-rules";
import { detectPhone } from "../api/upload-settings";

export type PhotoUploadStatus = "pending" | "uploading" | "success" | "error";

export interface SelectedPhoto {
  id: string;
  name: string;
  size: number;
  data: Blob | undefined;
  /** Restored after a closed tab without its bytes (too big to keep in the browser): pick it again to resume. */
  ghost: boolean;
  status: PhotoUploadStatus;
  percent: number;
  error?: string;
}

export interface UploadOutcome {
  uploaded: number;
  failed: number;
  cancelled: boolean;
}

export interface UploadRun {
  eventId: number;
  /** The upload the run sent files for; null for files chosen before uploads were followed. */
  uploadId: string | null;
  outcome: UploadOutcome;
  /** Distinct failure reasons of this run, for the error alert. */
  errors: string[];
}

export interface RunOptions {
  eventId: number;
  uploadId: string;
  compress: boolean;
}

function toSelected(file: PhotoFile): SelectedPhoto {
  const data = !file.isRemote && file.data instanceof Blob ? file.data : undefined;
  const status: PhotoUploadStatus = file.progress.uploadComplete
    ? "success"
    : file.error
      ? "error"
      : file.progress.uploadStarted
        ? "uploading"
        : "pending";
  return {
    id: file.id,
    name: file.name ?? "foto",
    size: file.size ?? 0,
    data,
    ghost: file.isGhost === true,
    status,
    percent: file.progress.percentage ?? 0,
    ...(file.error ? { error: file.error } : {}),
  };
}

/** Uppy's state as React reads it: one snapshot per state change, shared by every render. */
function useUppyState(uppy: PhotoUppy) {
  const subscribe = useCallback(
    (notify: () => void) => {
      uppy.on("state-update", notify);
      return () => {
        uppy.off("state-update", notify);
      };
    },
    [uppy],
  );
  return useSyncExternalStore(subscribe, () => uppy.getState());
}

/**
 * One uploader per page load: coming back to the screen finds the same photos and uploads (Uppy's
 * `destroy` would remove the files, and with them what Golden Retriever keeps for resuming).
 */
let uploader: PhotoUppy | undefined;
function photoUploader(phone: boolean): PhotoUppy {
  uploader ??= createPhotoUploader({ phone });
  return uploader;
}

/**
 * The selected photos and their uploads, held by Uppy (and by Golden Retriever across a closed
 * tab). A run uploads whatever is not uploaded yet; failed photos are retried by the next run or
 * by resuming. Cancelling stops every transfer, aborts multipart uploads in the store, and keeps
 * the photos not yet uploaded selected for later.
 */
export function useUploader() {
  const phone = useMemo(detectPhone, []);
  const [uppy] = useState(() => photoUploader(phone));
  const state = useUppyState(uppy);
  const [uploading, setUploading] = useState(false);
  const stopRun = useRef<(() => void) | null>(null);

  // Leaving the screen pauses transfers, so nothing runs with nobody watching; they resume from here.
  useEffect(() => () => uppy.pauseAll(), [uppy]);

  const photos = useMemo(() => Object.values(state.files).map(toSelected), [state.files]);

  const add = useCallback(
    (files: Iterable<File>): string[] => {
      const present = new Set(
        uppy.getFiles().map((file) => (file.data instanceof File ? fileKey(file.data) : file.id)),
      );
      const selection = partitionFiles(files, present);
      uppy.addFiles(
        selection.accepted.map((file) => ({ name: file.name, type: file.type, data: file, source: "local" })),
      );
      return rejectionMessages(selection);
    },
    [uppy],
  );

  const remove = useCallback((id: string) => uppy.removeFile(id), [uppy]);
  const clear = useCallback(() => uppy.clear(), [uppy]);

  /** Files whose earlier upload was interrupted (closed tab, dropped connection) or failed. */
  const sessionHeld =
    !uploading &&
    (state.recoveredState != null ||
      Object.values(state.files).some(
        (file) => file.error || (file.progress.uploadStarted && !file.progress.uploadComplete),
      ));

  const clearDelivered = useCallback(() => {
    const done = uppy.getFiles().filter((file) => file.progress.uploadComplete);
    if (done.length > 0) uppy.removeFiles(done.map((file) => file.id));
  }, [uppy]);

  const runUploads = useCallback(
    async (eventId: number, uploadId: string | null, start: () => Promise<unknown>): Promise<UploadRun> => {
      const errors = new Set<string>();
      let uploaded = 0;
      let failed = 0;
      let cancelled = false;
      const onSuccess = () => {
        uploaded++;
      };
      const onError = (_file: PhotoFile | undefined, error: unknown) => {
        failed++;
        errors.add(uploadErrorMessage(error));
      };
      uppy.on("upload-success", onSuccess);
      uppy.on("upload-error", onError);
      setUploading(true);
      try {
        await Promise.race([
          start(),
          new Promise<void>((resolve) => {
            stopRun.current = () => {
              cancelled = true;
              resolve();
            };
          }),
        ]);
      } finally {
        stopRun.current = null;
        uppy.off("upload-success", onSuccess);
        uppy.off("upload-error", onError);
        // Spec §4: what went is cleared from the selection; what failed stays, to resume.
        clearDelivered();
        setUploading(false);
      }
      return { eventId, uploadId, outcome: { uploaded, failed, cancelled }, errors: [...errors] };
    },
    [uppy, clearDelivered],
  );

  const start = useCallback(
    (options: RunOptions): Promise<UploadRun> => {
      // A session restored after a closed tab may still list what it delivered: this run is about the rest.
      clearDelivered();
      for (const file of uppy.getFiles()) {
        uppy.setFileMeta(file.id, { eventId: options.eventId, uploadId: options.uploadId, compress: options.compress });
      }
      return runUploads(options.eventId, options.uploadId, () => {
        const failed = uppy.getFiles().some((file) => file.error);
        return Promise.all([failed ? uppy.retryAll() : undefined, uppy.upload()]);
      });
    },
    [uppy, runUploads, clearDelivered],
  );

  /**
   * Continues the held session. After a closed tab that is what Golden Retriever's
   * `restore-confirmed` does — resume the uploads it restored — done here so the run can be
   * awaited; failed uploads are retried, and each multipart upload goes on from the parts the store
   * lists instead of starting over.
   */
  const resume = useCallback(
    (eventId: number): Promise<UploadRun> => {
      for (const file of uppy.getFiles()) {
        if (file.meta.eventId === undefined) uppy.setFileMeta(file.id, { eventId });
      }
      const uploadId = uppy.getFiles().find((file) => file.meta.uploadId)?.meta.uploadId ?? null;
      return runUploads(eventId, uploadId, async () => {
        const { recoveredState, currentUploads } = uppy.getState();
        const restored = recoveredState ? Object.keys(currentUploads) : [];
        // Paused when the screen was left: their upload is still the run that started them.
        const paused = !recoveredState && uppy.getFiles().some((file) => file.isPaused);
        const pausedDone = paused ? new Promise<void>((resolve) => uppy.once("complete", () => resolve())) : undefined;
        if (recoveredState) uppy.setState({ recoveredState: null });
        if (recoveredState || paused) uppy.resumeAll();
        const failed = uppy.getFiles().some((file) => file.error);
        await Promise.all([
          ...restored.map((uploadId) => uppy.restore(uploadId)),
          pausedDone,
          failed ? uppy.retryAll() : undefined,
          uppy.upload(),
        ]);
      });
    },
    [uppy, runUploads],
  );

  const cancel = useCallback(() => {
    const remaining = uppy
      .getFiles()
      .filter((file) => !file.progress.uploadComplete && !file.isRemote && file.data)
      .map((file) => ({ name: file.name, type: file.type, data: file.data as Blob, meta: file.meta, source: "local" }));
    uppy.cancelAll();
    uppy.addFiles(remaining);
    stopRun.current?.();
  }, [uppy]);

  /** The run's progress against every file it started with: the totals never grow while it runs. */
  const progress = useMemo(() => {
    let loaded = 0;
    let total = 0;
    let filesDone = 0;
    const files = Object.values(state.files);
    for (const file of files) {
      total += file.size ?? 0;
      loaded += file.progress.uploadComplete ? (file.size ?? 0) : file.progress.bytesUploaded || 0;
      if (file.progress.uploadComplete) filesDone++;
    }
    return {
      loaded,
      total,
      percent: total === 0 ? 0 : Math.round((loaded / total) * 100),
      filesDone,
      files: files.length,
    };
  }, [state.files]);

  const ghosts = photos.some((photo) => photo.ghost);

  return { phone, photos, uploading, progress, sessionHeld, ghosts, add, remove, clear, start, resume, cancel };
}
