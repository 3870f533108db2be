import { settingsApi } from "@dorsal/shared/contract/settings";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** Spec §7/§9: the storage status is polled every 30 s while the screen is open. */
export const storageStatusQueryOptions = () =>
  queryOptions({
    queryKey: ["cloud", "status"],
    queryFn: ({ signal }) => apiCall(settingsApi.storageStatus, { signal }),
    refetchInterval: 30_000,
  });

export function useStorageStatus() {
  return useQuery(storageStatusQueryOptions());
}
