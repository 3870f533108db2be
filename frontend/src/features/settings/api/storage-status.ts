import type { StorageStatusDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

export function getStorageStatus(signal?: AbortSignal): Promise<StorageStatusDto> {
  return apiFetch<StorageStatusDto>("/api/cloud/test", { signal });
}

/** Spec §7/§9: the storage status is polled every 30 s while the screen is open. */
export const storageStatusQueryOptions = () =>
  queryOptions({
    queryKey: ["cloud", "status"],
    queryFn: ({ signal }) => getStorageStatus(signal),
    refetchInterval: 30_000,
  });

export function useStorageStatus() {
  return useQuery(storageStatusQueryOptions());
}
