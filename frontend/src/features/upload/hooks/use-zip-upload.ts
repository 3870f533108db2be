import { messages, type ZipBatchStatusResponse } from "@dorsal/shared";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../../lib/api-fetch";
import { useSession } from "../../../lib/session";
import { uploadErrorMessage } from "../api/direct-upload";
import {
  clearPendingZip,
  isSameZip,
  loadPendingZip,
  type PendingZip,
  pendingZipFor,
  savePendingZip,
  zipPickSameFileMessage,
} from "../api/zip-resume";
import {
  checkZipFile,
  isFinalZipStatus,
  zipPollEveryMs,
  zipPollMaxFailures,
  zipUploadGoneMessage,
} from "../api/zip-rules";
import {
  abortZipMultipart,
  createZipBatch,
  createZipUploader,
  getZipBatchStatus,
  sendZip,
  type UploadTo,
  type ZipUppy,
} from "../api/zip-upload";

export type ZipUploadState =
  | { phase: "idle" }
  | { phase: "uploading"; fileName: string; loaded: number; total: number; percent: number }
  /** The ZIP is in storage: the batch is followed until completed or failed (`batch` null before the first answer). */
  | { phase: "watching"; batchId: string; batch: ZipBatchStatusResponse | null; checkFailed: boolean }
  /** A closed tab left this browser's last ZIP upload unfinished: it resumes once its file is picked again. */
  | { phase: "interrupted" }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

/** The API's own text when it answered (413, invalid name…), otherwise the upload's spec §8 text. */
function zipErrorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : uploadErrorMessage(error);
}

const cancelled = Symbol("cancelled");

/** The store answered that the multipart upload does not exist (NoSuchUpload): not the API refusing. */
function isGoneFromStore(error: unknown): boolean {
  return !(error instanceof ApiError) && (error as { status?: unknown } | null)?.status === 404;
}

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
 * cancellable progress, then follow its batch until the import is completed or failed. While it is
 * sent, the browser keeps what it takes to resume it (zip-resume.ts): after a dropped connection
 * 'Reanudar subida del ZIP' sends only the missing parts, and after a closed tab the screen finds the
 * unfinished upload, asks for the same file again and does the same.
 */
export function useZipUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, setState] = useState<ZipUploadState>({ phase: "idle" });
  const userId = useSession()?.id ?? "";
  const [pending, setPending] = useState<PendingZip | null>(() => loadPendingZip(userId));
  const stopRun = useRef<(() => void) | null>(null);

  useBatchPolling(state, setState);
  // Leaving the screen stops an upload nobody is watching; what it sent is kept for resuming.
  useEffect(() => () => stopRun.current?.(), []);

  const remember = useCallback((next: PendingZip | null) => {
    if (next) savePendingZip(next);
    else clearPendingZip();
    setPending(next);
  }, []);

  // An upload a closed tab left unfinished: still uploading, it waits for its file; otherwise its
  // bytes arrived and the batch is followed from where it is.
  const restoredBatch = useRef(pending?.batchId ?? null);
  useEffect(() => {
    const batchId = restoredBatch.current;
    if (!batchId) return;
    const controller = new AbortController();
    const waitForFile = () => setState((current) => (current.phase === "idle" ? { phase: "interrupted" } : current));
    // Only an answer settles it: an effect stopped before one (React's development double run) asks again.
    getZipBatchStatus(batchId, controller.signal).then(
      (batch) => {
        if (controller.signal.aborted) return;
        restoredBatch.current = null;
        if (batch.status === "uploading") return waitForFile();
        remember(null);
        setState({ phase: "watching", batchId, batch, checkFailed: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        restoredBatch.current = null;
        // The batch is gone, or this user may no longer upload to its event: nothing to resume.
        if (error instanceof ApiError && (error.status === 404 || error.status === 403)) remember(null);
        else waitForFile();
      },
    );
    return () => controller.abort();
  }, [remember]);

  const uploading = state.phase === "uploading";

  const select = useCallback((picked: File | null) => {
    if (!picked) return;
    const rejection = checkZipFile(picked);
    setProblem(rejection);
    setFile(rejection ? null : picked);
  }, []);

  /** Forgets the unfinished upload; the store is told to drop its parts (best effort). */
  const abandon = useCallback(() => {
    if (pending?.multipart) void abortZipMultipart(pending.multipart).catch(() => undefined);
    remember(null);
  }, [pending, remember]);

  /** Sends `zip` to its batch's key and then follows the batch; any failure keeps the upload resumable. */
  const send = useCallback(
    async (zip: File, target: (signal: AbortSignal) => Promise<UploadTo | undefined>) => {
      setProblem(null);
      setState({ phase: "uploading", fileName: zip.name, loaded: 0, total: zip.size, percent: 0 });
      const controller = new AbortController();
      let uppy: ZipUppy | undefined;
      let resumedMultipart = false;
      const stopped = new Promise<typeof cancelled>((resolve) => {
        stopRun.current = () => {
          controller.abort();
          uppy?.cancelAll();
          resolve(cancelled);
        };
      });
      try {
        const to = await Promise.race([target(controller.signal), stopped]);
        if (to === cancelled || !to) return;
        resumedMultipart = to.multipart !== undefined;
        uppy = createZipUploader();
        const sent = sendZip(uppy, zip, to, {
          progress: (loaded, total) => {
            const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
            setState((current) => (current.phase === "uploading" ? { ...current, loaded, total, percent } : current));
          },
          // Kept the moment the store starts it, so even a closed tab can resume it.
          multipartStarted: (multipart) =>
            setPending((current) => {
              if (!current || current.batchId !== to.batchId || current.multipart?.uploadId === multipart.uploadId) {
                return current;
              }
              const next = { ...current, multipart };
              savePendingZip(next);
              return next;
            }),
        });
        if ((await Promise.race([sent, stopped])) === cancelled) return;
        remember(null);
        setFile(null);
        setState({ phase: "watching", batchId: to.batchId, batch: null, checkFailed: false });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (resumedMultipart && isGoneFromStore(error)) {
          // The store dropped the parts (on AWS, a day after the upload began): the batch still
          // waits for its archive, so the next run sends the whole file again.
          setPending((current) => {
            if (!current) return current;
            const { multipart: _dropped, ...rest } = current;
            savePendingZip(rest);
            return rest;
          });
          setState({ phase: "failed", message: zipUploadGoneMessage });
          return;
        }
        setState({ phase: "failed", message: zipErrorMessage(error) });
      } finally {
        stopRun.current = null;
        uppy?.destroy();
      }
    },
    [remember],
  );

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
      // A new ZIP replaces an unfinished one.
      abandon();
      await send(file, async (signal) => {
        const batch = await createZipBatch({ eventId, filename: file.name, size: file.size }, signal);
        if (signal.aborted) return undefined;
        remember(pendingZipFor(userId, file, { batchId: batch.batchId, eventId }));
        return { batchId: batch.batchId, put: { url: batch.url, key: batch.key, headers: batch.headers } };
      });
    },
    [abandon, file, remember, send, userId],
  );

  /** Same file as the unfinished upload (held since a dropped connection, or picked again after a closed tab). */
  const canResume = !uploading && pending !== null && file !== null && isSameZip(pending, file);

  const resume = useCallback(async () => {
    if (!pending || !file || !isSameZip(pending, file)) {
      setProblem(pending ? zipPickSameFileMessage(pending) : null);
      return;
    }
    const to: UploadTo = { batchId: pending.batchId, ...(pending.multipart ? { multipart: pending.multipart } : {}) };
    await send(file, async () => to);
  }, [file, pending, send]);

  /** Gives up the unfinished upload for good. */
  const discard = useCallback(() => {
    abandon();
    setProblem(null);
    setState({ phase: "idle" });
  }, [abandon]);

  const cancel = useCallback(() => {
    if (!stopRun.current) return;
    stopRun.current();
    // Uppy aborted the multipart upload in the store: there is nothing left to resume.
    remember(null);
    setState({ phase: "cancelled" });
  }, [remember]);

  /**
   * Another upload started on the screen: an old refusal or failure is no longer news. An upload
   * that can still be resumed is kept, as the unfinished upload it is.
   */
  const clearMessages = useCallback(() => {
    setProblem(null);
    setState((current) => {
      if (current.phase === "cancelled") return { phase: "idle" };
      if (current.phase === "failed") return pending ? { phase: "interrupted" } : { phase: "idle" };
      if (current.phase === "watching" && current.batch?.status === "error") return { phase: "idle" };
      return current;
    });
  }, [pending]);

  /** After the status checks gave up: starts following the batch again. */
  const recheck = useCallback(() => {
    setState((current) => (current.phase === "watching" ? { ...current, checkFailed: false } : current));
  }, []);

  return {
    file,
    problem,
    state,
    uploading,
    pending: uploading ? null : pending,
    canResume,
    select,
    start,
    resume,
    discard,
    cancel,
    recheck,
    clearMessages,
  };
}
