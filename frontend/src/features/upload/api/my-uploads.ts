import type { UploadSummaryDto, ZipUploadSummaryDto } from "@dorsal/shared";
import { photosApi } from "@dorsal/shared/contract/photos";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** While an upload is processed, how often its state is asked for (spec §9 polls batches every 2 s). */
export const uploadPollEveryMs = 2000;
/** The history asks less often: it only catches uploads left processing by an earlier visit. */
const historyPollEveryMs = 5000;

export function startUpload(eventId: number, fileCount: number) {
  return apiCall(photosApi.startUpload, { body: { eventId, fileCount } });
}

export const myUploadsKey = ["my-uploads"] as const;

export const myUploadsQueryOptions = () =>
  queryOptions({
    queryKey: myUploadsKey,
    queryFn: ({ signal }) => apiCall(photosApi.myUploads, { signal }),
  });

export const uploadDetailQueryOptions = (uploadId: string) =>
  queryOptions({
    queryKey: [...myUploadsKey, uploadId],
    queryFn: ({ signal }) => apiCall(photosApi.myUpload, { params: { uploadId }, signal }),
  });

/** Photos of the upload the pipeline has finished with, whatever the outcome. */
export const settledPhotos = (upload: UploadSummaryDto) =>
  upload.processedPhotos + upload.duplicatePhotos + upload.failedPhotos;

/** Being worked on by the server now. A ZIP still `uploading` waits for its browser, not the server. */
function processing(upload: UploadSummaryDto | ZipUploadSummaryDto): boolean {
  if (upload.kind === "zip") return upload.status === "extracting" || upload.status === "processing";
  return upload.pendingPhotos > 0;
}

/**
 * The uploader's own recent uploads. One still processing is asked about again, unless the screen
 * already follows it closely (`followedId`).
 */
export function useMyUploads(followedId: string | null) {
  return useQuery({
    ...myUploadsQueryOptions(),
    refetchInterval: (query) =>
      query.state.data?.uploads.some((upload) => processing(upload) && upload.uploadId !== followedId)
        ? historyPollEveryMs
        : false,
  });
}
