import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { fileKey, partitionFiles, rejectionMessages } from "../api/file-rules";
import { type PhotoUploadStatus, type UploadOutcome, uploadPhotos } from "../api/upload-photos";

export interface SelectedPhoto {
  key: string;
  file: File;
  status: PhotoUploadStatus;
  loadedBytes: number;
  error?: string;
}

export interface UploadRun {
  eventId: number;
  outcome: UploadOutcome;
  /** Distinct failure reasons of this run, for the error alert. */
  errors: string[];
}

/**
 * The selected photos and their upload state. Successful photos leave the queue when a run ends,
 * so pressing upload again retries exactly what failed or was cancelled.
 */
export function useUploadQueue() {
  const [photos, setPhotos] = useState<SelectedPhoto[]>([]);
  const [uploading, setUploading] = useState(false);
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen must not keep uploads running with nobody watching them.
  useEffect(() => () => controller.current?.abort(), []);

  const add = useCallback(
    (files: Iterable<File>): string[] => {
      const selection = partitionFiles(files, new Set(photos.map((photo) => photo.key)));
      if (selection.accepted.length > 0) {
        setPhotos((current) => {
          const present = new Set(current.map((photo) => photo.key));
          const added = selection.accepted
            .filter((file) => !present.has(fileKey(file)))
            .map<SelectedPhoto>((file) => ({ key: fileKey(file), file, status: "pending", loadedBytes: 0 }));
          return [...current, ...added];
        });
      }
      return rejectionMessages(selection);
    },
    [photos],
  );

  const remove = useCallback((key: string) => {
    setPhotos((current) => current.filter((photo) => photo.key !== key));
  }, []);

  const clear = useCallback(() => setPhotos([]), []);

  const update = useCallback((key: string, change: Partial<SelectedPhoto>) => {
    setPhotos((current) => current.map((photo) => (photo.key === key ? { ...photo, ...change } : photo)));
  }, []);

  const start = useCallback(
    async (eventId: number): Promise<UploadRun> => {
      const abort = new AbortController();
      controller.current = abort;
      setUploading(true);
      const errors = new Set<string>();
      const queued = photos.map(({ key, file }) => ({ key, file }));
      setPhotos((current) =>
        current.map((photo) => ({ ...photo, status: "pending", loadedBytes: 0, error: undefined })),
      );
      try {
        const outcome = await uploadPhotos(
          eventId,
          queued,
          {
            onProgress: (key, loadedBytes) => update(key, { loadedBytes }),
            onStatus: (key, status, error) => {
              if (error) errors.add(error);
              update(key, { status, error });
            },
          },
          abort.signal,
        );
        return { eventId, outcome, errors: [...errors] };
      } finally {
        controller.current = null;
        setUploading(false);
        setPhotos((current) => current.filter((photo) => photo.status !== "success"));
      }
    },
    [photos, update],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);

  const progress = useMemo(() => {
    let loaded = 0;
    let total = 0;
    for (const photo of photos) {
      loaded += photo.loadedBytes;
      total += photo.file.size;
    }
    return { loaded, total, percent: total === 0 ? 0 : Math.round((loaded / total) * 100) };
  }, [photos]);

  return { photos, uploading, progress, add, remove, clear, start, cancel };
}
