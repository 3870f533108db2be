import { driveApi } from "@dorsal/shared/contract/drive";
import { type DriveAuthOutcome, driveAuthParam } from "@dorsal/shared/drive";
import { queryOptions } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { isFinalZipStatus, zipPollEveryMs } from "./zip-rules";
import { getZipBatchStatus } from "./zip-upload";

/**
 * The cloud-drive source of the upload screen (spec §2.5, §7): the admin's drive folders, a
 * folder's preview, the authorization popup's URL, and the import, which the server runs in the
 * background as a batch followed like a ZIP's.
 */

export const driveKey = ["drive"] as const;

export const driveFoldersQueryOptions = () =>
  queryOptions({
    queryKey: [...driveKey, "folders"],
    queryFn: ({ signal }) => apiCall(driveApi.folders, { signal }),
  });

export const drivePhotosQueryOptions = (folderId: string) =>
  queryOptions({
    queryKey: [...driveKey, "folders", folderId, "photos"],
    queryFn: ({ signal }) => apiCall(driveApi.photos, { params: { id: folderId }, signal }),
  });

/** A drive import's batch, asked every 2 s until it is completed or failed. */
export const driveBatchQueryOptions = (batchId: string) =>
  queryOptions({
    queryKey: [...driveKey, "batch", batchId],
    queryFn: ({ signal }) => getZipBatchStatus(batchId, signal),
    refetchInterval: (query) =>
      query.state.data && isFinalZipStatus(query.state.data.status) ? false : zipPollEveryMs,
  });

export const driveAuthUrl = (email: string | undefined, clean: boolean) =>
  apiCall(driveApi.auth, { query: { ...(email ? { email } : {}), ...(clean ? { clean: "true" } : {}) } });

export const resetDrive = () => apiCall(driveApi.reset);

export const importDriveFolder = (eventId: number, folderId: string) =>
  apiCall(driveApi.import, { params: { eventId }, body: { folderId } });

/** Spec §9: the popup is looked at every second, and given up after 60 s (5 min for a clean window). */
export const drivePopupPollMs = 1000;
export const drivePopupTimeoutMs = (clean: boolean) => (clean ? 300_000 : 60_000);

/** How an authorization ended, from a page address the callback sent back (null while still at the provider). */
export function driveAuthOutcome(href: string): DriveAuthOutcome | null {
  const value = new URL(href).searchParams.get(driveAuthParam);
  return value === "success" || value === "error" ? value : null;
}

/** Spec §9: '+N más' after the 12 previewed. */
export const morePhotosLabel = (total: number, shown: number) => (total > shown ? `+${total - shown} más` : null);
