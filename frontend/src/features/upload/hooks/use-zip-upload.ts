import { messages, type ZipBatchStatusResponse } from "@dorsal/shared";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../../lib/api-fetch";
import { uploadErrorMessage, uploadUnknownErrorMessage } from "../api/direct-upload";
import { checkZipFile, isFinalZipStatus, zipPollEveryMs, zipPollMaxFailures } from "../api/zip-rules";
import { createZipBatch, createZipUploader, getZipBatchStatus, type ZipUppy } from "../api/zip-upload";

export type ZipUploadState =
  | { phase: "idle" }
  | { phase: "uploading"; fileName: string; loaded: number; total: number; percent: number }
  /** The ZIP is in storage: the batch is followed until completed or failed (`batch` null before the first answer). */
  | { phase: "watching"; batchId: string; batch: ZipBatchStatusResponse | null; checkFailed: boolean }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

/** The API's own text when it answered (413, invalid name…), otherwise the upload's spec §8 text. */
function zipErrorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : uploadErrorMessage(error);
}

const cancelled = Symbol("cancelled");

/** Follows a batch every 2 s until it is completed or failed; a few failed checks in a row stop it. */
function useBatchPolling(
  state: ZipUploadState,
  setState: (update: (current: ZipUploadState) => ZipUploadState) => void,
) {
  const batchId = state.phase === "watching" ? state.batchId : null;
  const round = state.phase === "watching" && !state.checkFailed ? 0 : 1;
  useEffect(() => {
    if (!batchId || round !== 0) return;
    const controller = new AbortController();
    let timer: number | undefined;
    let failures = 0;
    const update = (change: Partial<Extract<ZipUploadState, { phase: "watching" }>>) =>
      setState((current) =>
        current.phase === "watching" && current.batchId === batchId ? { ...current, ...change } : current,
      );
    const poll = async () => {
      try {
        const batch = await getZipBatchStatus(batchId, controller.signal);
        if (controller.signal.aborted) return;
        failures = 0;
        update({ batch });
        if (isFinalZipStatus(batch.status)) return;
      } catch {
        if (controller.signal.aborted) return;
        failures += 1;
        if (failures >= zipPollMaxFailures) {
          update({ checkFailed: true });
          return;
        }
      }
      timer = window.setTimeout(poll, zipPollEveryMs);
    };
    void poll();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [batchId, round, setState]);
}

/**
 * The ZIP card's logic (spec §2.5, §4): pick and check a ZIP, send it straight to storage with a
 * cancellable progress, then follow its batch until the import is completed or failed.
 */
export function useZipUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, setState] = useState<ZipUploadState>({ phase: "idle" });
  const stopRun = useRef<(() => void) | null>(null);

  useBatchPolling(state, setState);
  // Leaving the screen stops an upload nobody is watching.
  useEffect(() => () => stopRun.current?.(), []);

  const uploading = state.phase === "uploading";

  const select = useCallback((picked: File | null) => {
    if (!picked) return;
    const rejection = checkZipFile(picked);
    setProblem(rejection);
    setFile(rejection ? null : picked);
  }, []);

  const start = useCallback(
    async (eventId: number | null) => {
      if (!file) {
        setProblem(messages.zipInvalidName);
        return;
      }
      if (eventId === null) {
        setProblem(messages.selectEvent);
        return;
      }
      setProblem(null);
      setState({ phase: "uploading", fileName: file.name, loaded: 0, total: file.size, percent: 0 });

      const controller = new AbortController();
      let uppy: ZipUppy | undefined;
      const stopped = new Promise<typeof cancelled>((resolve) => {
        stopRun.current = () => {
          controller.abort();
          uppy?.cancelAll();
          resolve(cancelled);
        };
      });
      try {
        const batch = await Promise.race([
          createZipBatch({ eventId, filename: file.name, size: file.size }, controller.signal),
          stopped,
        ]);
        if (batch === cancelled) return;
        uppy = createZipUploader();
        let failure: unknown;
        uppy.on("upload-progress", (_file, progress) => {
          const total = progress.bytesTotal || file.size;
          const loaded = progress.bytesUploaded;
          const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
          setState((current) => (current.phase === "uploading" ? { ...current, loaded, total, percent } : current));
        });
        uppy.on("upload-error", (_file, error) => {
          failure = error;
        });
        uppy.addFile({
          name: file.name,
          type: file.type || "application/zip",
          data: file,
          source: "local",
          meta: { batchId: batch.batchId, putUrl: batch.url, putKey: batch.key, putHeaders: batch.headers },
        });
        const result = await Promise.race([uppy.upload(), stopped]);
        if (result === cancelled) return;
        if (failure !== undefined || !result || (result.failed?.length ?? 0) > 0 || !result.successful?.length) {
          throw failure ?? new Error(uploadUnknownErrorMessage);
        }
        setFile(null);
        setState({ phase: "watching", batchId: batch.batchId, batch: null, checkFailed: false });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState({ phase: "failed", message: zipErrorMessage(error) });
      } finally {
        stopRun.current = null;
        uppy?.destroy();
      }
    },
    [file],
  );

  const cancel = useCallback(() => {
    if (!stopRun.current) return;
    stopRun.current();
    setState({ phase: "cancelled" });
  }, []);

  /** After the status checks gave up: starts following the batch again. */
  const recheck = useCallback(() => {
    setState((current) => (current.phase === "watching" ? { ...current, checkFailed: false } : current));
  }, []);

  return { file, problem, state, uploading, select, start, cancel, recheck };
}
